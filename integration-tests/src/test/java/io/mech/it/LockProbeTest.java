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
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The lock probe in the real mech.jar against every locks kernel's declared ground truth, both
 * ways, on JDK 17 and 25: a variant that declares contention or inflation is flagged on its lock
 * class and call site, for the right reason; every other variant leaves no row on the kernel's
 * classes. The contended runs also record JFR and must carry mech.LockContention events. Under the
 * default JFR on demand, JFR starts at the first contention and never without one. Without JFR,
 * thread dumps find the parked lock at its call site.
 */
class LockProbeTest {

    private static final String KERNEL_PACKAGE = "io.mech.examples.locks.";
    private static final String REENTRANT_LOCK = "java.util.concurrent.locks.ReentrantLock";

    @TempDir
    Path dir;

    /**
     * Every variant of the locks kernel, the variants taking the JDKs in turn (17, 21, 25, 17, ...):
     * every JDK runs a third of them, and the sweep fits CI's time, which two whole sweeps did not.
     */
    static Stream<Arguments> variants() {
        final List<Path> jdks = Jdks.all().toList();
        final List<Arguments> runs = new ArrayList<>();
        int turn = 0;
        for (final VariantDescriptor variant : Kernels.named("locks").orElseThrow().variants()) {
            runs.add(Arguments.of(jdks.get(turn++ % jdks.size()), variant.name()));
        }
        return runs.stream();
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("variants")
    void findsExactlyWhatTheVariantDeclares(final Path jdk, final String variant) throws Exception {
        final VariantDescriptor truth = Kernels.named("locks").orElseThrow().variant(variant).orElseThrow();
        final boolean contended = truth.findings().contains(Finding.LOCK_CONTENTION);
        final Path json = dir.resolve("report.json");
        final Path recording = dir.resolve("run.jfr");
        final List<String> command = new ArrayList<>(Forked.javaWithMech(jdk,
            "probes.locks=on,probes.locks.jfr=on,hiccup.log=,prometheus=off,report=off,report.json=" + json));
        if (contended) {
            command.add("-XX:StartFlightRecording:filename=" + recording + ",+mech.LockContention#period=1s");
        }
        command.addAll(truth.jvmArgs());
        command.addAll(List.of("-jar", Paths.examplesJar().toString(), "locks", variant, "--seconds", "4"));
        final Forked.Result result = Forked.run(dir, command, 60);
        assertEquals(0, result.exit(), result.err());
        assertEquals(List.of(), result.mechLines(), "the probe starts without a word");

        final String report = Files.readString(json);
        final List<Map<String, String>> rows = ReportRows.of(report, "locks");
        final Set<String> contentionClasses = classes(rows, row -> Set.of("monitor_enter", "juc_lock").contains(row.get("kind")));
        final Set<String> inflated = classes(rows, row -> row.get("kind").equals("inflation"));
        if (truth.sites(Finding.LOCK_CONTENTION).stream().anyMatch(site -> site.className().equals(REENTRANT_LOCK))) {
            assertJucContention(rows, report);
        } else if (contended) {
            final String monitor = truth.sites(Finding.LOCK_CONTENTION).get(0).className();
            assertTrue(rows.stream().anyMatch(row -> row.get("kind").equals("monitor_enter") && row.get("class").equals(monitor)
                && row.get("site").startsWith(monitor + ".")), "monitor contention on " + monitor + " at its call site: " + report);
        } else {
            assertEquals(Set.of(), contentionClasses, variant + " must show no contention on the kernel's classes: " + report);
            assertTrue(counted(rows) < 50, variant + " must count no j.u.c. contention: " + report);
        }
        final Set<String> declaredInflation = truth.sites(Finding.LOCK_INFLATION).stream()
            .map(site -> site.className()).collect(Collectors.toSet());
        if (!declaredInflation.isEmpty() && !contended) {
            final String monitor = declaredInflation.iterator().next();
            assertTrue(rows.stream().anyMatch(row -> row.get("class").equals(monitor)
                && (row.get("kind").equals("monitor_wait") || "true".equals(row.get("by_wait")))),
                "inflation by wait on " + monitor + ": " + report);
            assertTrue(rows.stream().noneMatch(row -> row.get("class").equals(monitor)
                && ("false".equals(row.get("by_wait")) || row.get("kind").equals("monitor_enter"))),
                "wait, not contention, on " + monitor + ": " + report);
        } else if (declaredInflation.isEmpty()) {
            assertEquals(Set.of(), inflated, variant + " inflates no monitor of the kernel's: " + report);
        }
        assertFalse(report.contains("io.mech.hiccup") || report.contains("io.mech.exporter") || report.contains("io.mech.shaded"),
            "mech's own locks stay out: " + report);
        if (contended) {
            final String events = Forked.run(dir, List.of(jdk.resolve("bin/jfr").toString(), "print", "--events",
                "mech.LockContention", recording.toString()), 60).out();
            assertTrue(events.contains("lockClass = \"" + (variant.startsWith("reentrant") ? REENTRANT_LOCK : KERNEL_PACKAGE)),
                "mech.LockContention names the contended lock: " + events);
        }
    }

    /** j.u.c. contention, counted below JFR's threshold too, and no monitor rows on the kernel's classes. */
    private static void assertJucContention(final List<Map<String, String>> rows, final String report) {
        final long seenByJfr = rows.stream().filter(row -> row.get("kind").equals("juc_lock") && row.get("class").equals(REENTRANT_LOCK))
            .mapToLong(row -> Long.parseLong(row.get("count"))).sum();
        assertTrue(counted(rows) > seenByJfr, "contended acquisitions counted beyond the " + seenByJfr
            + " JFR saw above its threshold: " + report);
        assertTrue(rows.stream().noneMatch(row -> row.get("class").startsWith(KERNEL_PACKAGE)
            && Set.of("monitor_enter", "inflation").contains(row.get("kind"))), "not monitor contention or inflation: " + report);
    }

    private static long counted(final List<Map<String, String>> rows) {
        return rows.stream().filter(row -> row.get("kind").equals("juc_counted") && row.get("class").equals(REENTRANT_LOCK))
            .mapToLong(row -> Long.parseLong(row.get("count"))).sum();
    }

    private static Set<String> classes(final List<Map<String, String>> rows, final Predicate<Map<String, String>> which) {
        return rows.stream().filter(which).map(row -> row.get("class")).filter(c -> c.startsWith(KERNEL_PACKAGE))
            .collect(Collectors.toSet());
    }

    /**
     * JFR on demand, the default: the contended kernel starts mech's stream at its first
     * contention, which the report names, and is flagged at its call site from then on; its
     * single-threaded twin never starts it. The causes read no JFR here, so only the lock probe
     * can open the stream.
     */
    @ParameterizedTest(name = "JFR on demand on {0}")
    @MethodSource("io.mech.it.Jdks#oldestAndNewest")
    void jfrStartsAtTheFirstContentionAndNeverWithoutOne(final Path jdk) throws Exception {
        final String contended = demandReport(jdk, "synchronized-contended");
        final String monitor = KERNEL_PACKAGE + "SynchronizedCounter";
        assertTrue(contended.contains("locks: JFR from ") && contended.contains("for monitor contention: thread \\\"locks-synchronized"),
            "JFR started for the kernel's own threads' blocks: " + contended);
        assertTrue(ReportRows.of(contended, "locks").stream().anyMatch(row -> row.get("kind").equals("monitor_enter")
            && row.get("class").equals(monitor)), "monitor contention on " + monitor + " once JFR recorded: " + contended);
        final String single = demandReport(jdk, "synchronized-single");
        assertTrue(single.contains("locks: no lock contention seen, so no JFR for it"), "no JFR without contention: " + single);
        assertEquals(List.of(), ReportRows.of(single, "locks"), "nothing to report: " + single);
    }

    private String demandReport(final Path jdk, final String variant) throws Exception {
        final Path json = dir.resolve(variant + ".json");
        final Forked.Result result = Forked.run(dir, Forked.javaWithMech(jdk, "hiccup.causes.jfr=off,hiccup.log=,prometheus=off,report=off,"
            + "report.json=" + json, "-jar", Paths.examplesJar().toString(), "locks", variant, "--seconds", "5"), 60);
        assertEquals(0, result.exit(), result.err());
        assertEquals(List.of(), result.mechLines(), "the probe runs without a word");
        return Files.readString(json);
    }

    static Stream<Path> jdks() {
        return Jdks.all();
    }

    /**
     * Without JFR the probe samples thread dumps instead: the kernel whose four threads park on
     * one ReentrantLock is found at its call site, in samples, with no maximum (a sample knows no
     * block's length), and the one warning says how locks are seen.
     */
    @ParameterizedTest(name = "without JFR on {0}")
    @MethodSource("jdks")
    void withoutJfrThreadDumpsFindTheParkedLockAtItsCallSite(final Path jdk) throws Exception {
        final Path json = dir.resolve("report.json");
        final List<String> command = new ArrayList<>(Forked.javaWithMech(jdk,
            "probes.locks=on,hiccup.log=,prometheus=off,report=off,report.json=" + json, "-XX:-FlightRecorder"));
        command.addAll(List.of("-jar", Paths.examplesJar().toString(), "locks", "reentrant-contended", "--seconds", "4",
            "--threads", "4"));
        final Forked.Result result = Forked.run(dir, command, 60);
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.mechLines().size() == 1 && result.mechLines().get(0).contains("locks are sampled through ThreadMXBean"),
            "one warning, saying how locks are seen: " + result.mechLines());

        final String report = Files.readString(json);
        final List<Map<String, String>> sampled = ReportRows.of(report, "locks").stream()
            .filter(row -> row.get("kind").equals("juc_lock") && row.get("class").equals(REENTRANT_LOCK)
                && row.get("site").startsWith(KERNEL_PACKAGE + "ReentrantLockCounter.")).toList();
        assertEquals(1, sampled.size(), "the parked lock at its call site: " + report);
        assertTrue(Long.parseLong(sampled.get(0).get("count")) >= 1, report);
        assertFalse(sampled.get(0).containsKey("max_ms"), "no block length from samples: " + sampled.get(0));
        assertTrue(report.contains(" samples, "), "the report counts samples: " + report);
    }
}
