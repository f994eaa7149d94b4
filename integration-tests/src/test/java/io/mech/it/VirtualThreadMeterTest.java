package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The virtual-thread meter under mech's defaults, on JDK 21 and later (skipped on older JDKs):
 * the {@code carrier-wait} kernel, whose virtual threads hold every carrier with 50 ms of
 * computing at a time, stalls the virtual meter ({@code Tag=virtual} in the log, {@code virtual}
 * in the report) at least ten times as long as its twin, which computes on platform threads;
 * the platform meter does not tell the two apart that way. The same holds for the pinning pair:
 * virtual threads that sleep inside a class initializer, which pins them to every carrier, against
 * a twin that sleeps after it, unpinned.
 */
class VirtualThreadMeterTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void busyCarriersStallTheVirtualMeterAndNotThePlatformOne(final Path jdk) throws Exception {
        carrierWaitIsTheDefectsAlone(jdk, "virtual-compute", "platform-compute", "virtual threads holding the carriers", 20);
    }

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void pinnedCarriersStallTheVirtualMeterAndNotThePlatformOne(final Path jdk) throws Exception {
        carrierWaitIsTheDefectsAlone(jdk, "pinned-init", "unpinned-sleep", "virtual threads pinned to every carrier", 15);
    }

    /**
     * The virtual meter waits at least ten times as long beside the defect as beside its twin,
     * beyond what the platform meter waits; the platform meter does not tell them apart that way.
     */
    private void carrierWaitIsTheDefectsAlone(final Path jdk, final String defectVariant, final String twinVariant,
                                              final String defectIs, final double logMaxAtLeastMs) throws Exception {
        Assumptions.assumeTrue(Jdks.feature(jdk) >= 21, "virtual threads need JDK 21, " + jdk + " is " + Jdks.feature(jdk));
        final Run defect = run(jdk, defectVariant);
        final Run twin = run(jdk, twinVariant);
        // What the virtual meter waits beyond the platform meter is the wait for a carrier: the
        // operating system's own delays (a loaded machine, the kernel's busy threads) stall both.
        final String figures = "stalled, platform and virtual meter: " + defect + " beside " + defectIs + ", "
            + twin + " beside the twin";
        assertTrue(defect.carrierWaitMs() >= 10 * Math.max(twin.carrierWaitMs(), 50), figures);
        assertTrue(defect.hostStallMs < 10 * Math.max(twin.hostStallMs, 50), figures);
        assertTrue(defect.virtualLogMaxMs >= logMaxAtLeastMs, "the log's Tag=virtual lines hold the waits: max "
            + defect.virtualLogMaxMs + " ms");
    }

    private record Run(double hostStallMs, double virtualStallMs, double virtualLogMaxMs) {
        double carrierWaitMs() {
            return virtualStallMs - hostStallMs;
        }
    }

    private Run run(final Path jdk, final String variant) throws Exception {
        final Path json = dir.resolve(variant + ".json");
        final Path log = dir.resolve(variant + ".hlog");
        final Forked.Result result = Forked.run(dir, Forked.javaWithMech(jdk,
            "prometheus=off,report=off,hiccup.causes=off,probes.locks=off,hiccup.interval=1s,report.json=" + json + ",hiccup.log=" + log,
            "-jar", Paths.examplesJar().toString(), "carrier-wait:" + variant, "--seconds", "5"), 120);
        assertEquals(0, result.exit(), result.err());
        final String report = Files.readString(json);
        return new Run(stallMs(report, "host"), stallMs(report, "virtual"), HdrTools.max(HdrTools.processLog(log, "-tag", "virtual")));
    }

    private static double stallMs(final String report, final String meter) {
        return ReportRows.array(report, "hiccups").stream().filter(row -> row.get("jvm").equals(meter))
            .mapToDouble(row -> Double.parseDouble(row.get("stall_ms"))).findFirst().orElseThrow(() -> new AssertionError(meter + " in " + report));
    }
}
