package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.examples.Finding;
import io.mech.examples.Kernels;
import io.mech.examples.VariantDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lock probe in the real mech.jar against the locks kernels' declared ground truth, both
 * ways: a variant that declares lock contention is flagged on its lock class, its twin is not.
 */
class LockProbeTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"synchronized-contended", "synchronized-single", "reentrant-contended", "reentrant-single"})
    void contentionIsFlaggedExactlyWhereTheKernelDeclaresIt(final String variant) throws Exception {
        final VariantDescriptor truth = Kernels.named("locks").orElseThrow().variant(variant).orElseThrow();
        final Path json = dir.resolve("report.json");
        final List<String> command = new ArrayList<>(Forked.javaWithMech(Path.of(System.getProperty("java.home")),
            "probes.locks=on,hiccup.log=,prometheus=off,report=off,report.json=" + json));
        command.addAll(truth.jvmArgs());
        command.addAll(List.of("-jar", Paths.examplesJar().toString(), "locks", variant, "--seconds", "3"));
        final Forked.Result result = Forked.run(dir, command, 60);
        assertEquals(0, result.exit(), result.err());
        assertEquals(List.of(), result.mechLines(), "the probe starts without a word");

        final String report = Files.readString(json);
        final boolean flagged = report.contains("contention on io.mech.examples.locks.")
            || report.contains("lock contention on java.util.concurrent.locks.ReentrantLock at io.mech.examples.locks.");
        if (truth.findings().contains(Finding.LOCK_CONTENTION)) {
            assertTrue(flagged, variant + " declares lock contention: " + report);
        } else {
            assertFalse(flagged, variant + " must stay silent: " + report);
        }
        assertFalse(report.contains("io.mech.hiccup") || report.contains("io.mech.exporter"), "mech's own locks stay out: " + report);
    }
}
