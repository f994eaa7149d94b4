package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import corpus.libraries.LibrariesHost;
import corpus.shapes.ArraySlotsHost;
import corpus.shapes.ShapesHost;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The false-sharing probe of the real mech.jar on code written elsewhere (issue 23), judged both
 * ways on every JDK. Each host runs all its drivers at once, as worker loops started in
 * {@code main} long before the window, and ends when mech says the window is over.
 *
 * <ul>
 *   <li>The shapes mech missed or misranked: two volatile counters of one object are flagged
 *   with both fields named, and their padded twin is silent; AtomicLongArray slots 0 and 1 are
 *   flagged with both slots named, slots 0 and 16 are silent; a JMH-style state padded with 16
 *   ints has no verdict, and any prefetch-pair note on it scores below its unpadded twin's.</li>
 *   <li>A plain {@code long[]} whose slots 0 to 3 are four threads' counters (issue 33, part 4) is
 *   flagged with its field and the four slots named and the stride as the fix; its twin with
 *   the slots 16 longs apart is silent.</li>
 *   <li>Libraries padded or striped by their authors' design (the Disruptor, Agrona, JCTools,
 *   Caffeine, the JDK's LongAdder, ConcurrentHashMap and Exchanger), their packages included as a
 *   user would: no false sharing and no cross-object line in any of them, and no defect at all but
 *   the one their design accepts, JCTools' multi-producer indices that both producers CAS (true
 *   sharing); beside a positive control in the same window that must be flagged.</li>
 * </ul>
 */
class FalseSharingCorpusTest {

    /** The kinds that are defects; adjacent-line rows are prefetch-pair notes. */
    private static final Set<String> DEFECTS = Set.of("false sharing", "true sharing", "cross-object");
    /** The defects of a line that two things share which padding would part. */
    private static final Set<String> LINE_SHARING = Set.of("false sharing", "cross-object");
    private static final List<String> LIBRARY_PACKAGES = List.of("com.lmax.disruptor", "org.agrona", "org.jctools",
        "com.github.benmanes.caffeine");
    /**
     * The window opens once every loop is running and compiled; three counting bursts, 2 s apart, so that on a loaded
     * machine every thread runs in one of them.
     */
    private static final String WINDOW = "probes.falsesharing=on,probes.falsesharing.delay=1s,probes.falsesharing.window=4500ms,"
        + "hiccup=off,prometheus=off,probes.locks=off,report=off,report.json=";

    @TempDir
    Path dir;

    /** One verdict row of the JSON report. */
    private record Row(String verdict, String className, Set<String> fields, double score, String fix) {
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("io.mech.it.Jdks#all")
    void shapesOfRunningLoopsAndArraySlotsAreFlaggedAndTheirTwinsAreNot(final Path jdk) throws Exception {
        // objects start on a line, as the kernels' same-line defects do, so that the ground truth holds in every run: with
        // the default 8 bytes one placement in eight puts an object's two first fields on two lines
        final String report = run(jdk, "corpus.shapes", Paths.testClasses(), "-XX:ObjectAlignmentInBytes=64",
            ShapesHost.class.getName());
        final List<Row> rows = rows(report);
        final String shapes = "corpus.shapes.";

        assertTrue(rows.stream().anyMatch(r -> r.verdict().equals("false sharing") && r.className().equals(shapes + "LoopPair")
            && r.fields().equals(Set.of("first", "second"))), "a worker loop running since main is flagged: " + report);
        assertEquals(List.of(), named(rows, shapes + "PaddedLoopPair", true), "its padded twin is silent: " + report);

        final List<Row> slots = rows.stream().filter(r -> r.className().startsWith("java.util.concurrent.atomic.AtomicLongArray@"))
            .toList();
        assertTrue(slots.stream().anyMatch(r -> r.verdict().equals("false sharing") && r.fields().equals(Set.of("[0]", "[1]"))
            && r.fix().contains("16 longs")), "slots 0 and 1 are flagged with both named and the stride: " + report);
        assertTrue(slots.stream().noneMatch(r -> r.fields().contains("[16]")), "slots 0 and 16 are silent: " + report);

        final Row unpadded = rows.stream().filter(r -> r.verdict().equals("false sharing")
            && r.className().equals(shapes + "JmhState")).findFirst().orElseThrow(() -> new AssertionError(
                "the unpadded JMH-style state is flagged: " + report));
        assertEquals(List.of(), named(rows, shapes + "PaddedJmhState", true), "the state padded with 16 ints has no verdict: " + report);
        for (final Row note : named(rows, shapes + "PaddedJmhState", false)) {
            assertTrue(note.score() < unpadded.score(), "a prefetch-pair note " + note + " scores below the real defect "
                + unpadded + ": " + report);
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("io.mech.it.Jdks#all")
    void plainLongArraySlotsOfFourThreadsAreFlaggedAndTheirPaddedTwinIsNot(final Path jdk) throws Exception {
        final String report = run(jdk, "corpus.shapes", Paths.testClasses(), ArraySlotsHost.class.getName());
        final List<Row> rows = rows(report);
        final Pattern adjacent = Pattern.compile("long\\[\\]@[0-9a-f]+ held by corpus\\.shapes\\.PlainArraySlots\\.adjacent");
        final Set<String> slots = Set.of("[0]", "[1]", "[2]", "[3]");
        assertTrue(rows.stream().anyMatch(r -> r.verdict().equals("false sharing") && adjacent.matcher(r.className()).matches()
            && r.fields().equals(slots) && r.fix().contains("16 longs (128 bytes) apart")),
            "slots 0 to 3 of the plain long[] are flagged with the array's field, its four slots and the stride named: " + report);
        assertEquals(List.of(), rows.stream().filter(r -> r.className().contains("PlainArraySlots.strided")).toList(),
            "its twin, slots 16 longs apart, is silent: " + report);
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("io.mech.it.Jdks#all")
    void librariesPaddedOrStripedByDesignAreSilent(final Path jdk) throws Exception {
        final String include = String.join(";", LIBRARY_PACKAGES) + ";corpus.jdk;corpus.control";
        // Agrona 2 reads jdk.internal.misc.Unsafe, which its users export to it
        final String report = run(jdk, include, Paths.testClasses() + File.pathSeparator + Paths.libraries(),
            "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED", LibrariesHost.class.getName());
        final List<Row> rows = rows(report);
        assertTrue(rows.stream().anyMatch(r -> r.verdict().equals("false sharing")
            && r.className().equals("corpus.control.ControlPair")), "the positive control is flagged in the same window: "
            + report);
        for (final String library : List.of("com.lmax.disruptor.", "org.agrona.", "org.jctools.", "com.github.benmanes.caffeine.",
            "corpus.jdk.")) {
            assertEquals(List.of(), rows.stream().filter(r -> LINE_SHARING.contains(r.verdict()) && r.className().contains(library))
                .toList(), library + " is padded or striped by design: " + report);
        }
        // two producers CAS a multi-producer queue's index by design, which the probe may flag as true sharing; a single
        // producer's index is its own
        assertEquals(List.of(), rows.stream().filter(r -> DEFECTS.contains(r.verdict()) && r.className().contains("Spsc")).toList(),
            "JCTools' SPSC queue, one thread on each side, has nothing shared but what it hands over: " + report);
        assertEquals(List.of(), rows.stream().filter(r -> DEFECTS.contains(r.verdict())
            && (r.className().contains("caffeine") || r.className().contains("agrona") || r.className().contains("disruptor")
            || r.className().startsWith("corpus.jdk."))).toList(), "the Disruptor, Agrona, Caffeine and the JDK's drivers: " + report);
    }

    /** Runs a host under mech.jar and returns its JSON report. */
    private String run(final Path jdk, final String include, final String classPath, final String... main) throws Exception {
        final Path json = dir.resolve("report.json");
        final List<String> command = Forked.javaWithMech(jdk, WINDOW + json + ",probes.falsesharing.include=" + include,
            "-cp", classPath);
        command.addAll(List.of(main));
        final Forked.Result result = Forked.run(dir, command, 90);
        assertEquals(0, result.exit(), "the host ends once the window is over: " + result.err());
        assertEquals(List.of(), result.mechLines(), "the probe runs without a word");
        final String report = Files.readString(json);
        assertTrue(report.contains("s window, "), "the window ran to its end: " + report);
        return report;
    }

    /** Rows naming a class: its defects, or its prefetch-pair notes. */
    private static List<Row> named(final List<Row> rows, final String className, final boolean defects) {
        return rows.stream().filter(r -> DEFECTS.contains(r.verdict()) == defects
            && List.of(r.className().split(" / ")).contains(className)).toList();
    }

    private static List<Row> rows(final String report) {
        return ReportRows.of(report, "falsesharing").stream().map(row -> new Row(row.get("verdict"), row.get("class"),
            new TreeSet<>(List.of(row.get("fields").split(","))), Double.parseDouble(row.get("score")), row.get("fix"))).toList();
    }
}
