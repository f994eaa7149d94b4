package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import corpus.QueueCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The queue probe in the real mech.jar on queues of libraries the JVM-performance community
 * trusts, JCTools 4.0.5, Agrona 2.6.0 and the LMAX Disruptor 4.0.0, and on the JDK's, driven by
 * {@link QueueCorpus} in one JVM per JDK (17 and 25), sampled every 50 ms. The ground truth is
 * what the libraries' authors designed:
 * <ul>
 *   <li>every queue's capacity is the one its own API states ({@code MessagePassingQueue.capacity()},
 *       Agrona's {@code capacity()}, a {@code BlockingQueue}'s remaining capacity plus size), an
 *       unbounded one's is reported as unbounded; its depth and, where counted, its ins and outs
 *       are exact while it stands still;</li>
 *   <li>a bounded queue whose consumer keeps up raises no alert: the JCTools MPSC queue of the
 *       issue (once reported {@code depth 64/1 (6400%)}), SPSC and MPMC queues, a Disruptor whose
 *       handler keeps up; neither does any idle queue. Keeping up is judged by the driver: a
 *       pipeline whose producers saw its queue 70% deep (the machine took the consumer's core
 *       away) may alert, as the queue was then truly filling; at least one must have kept up;</li>
 *   <li>a queue whose consumer stalls is full: Agrona's one-to-one and many-to-one queues, and a
 *       Disruptor ring buffer with a slow handler raise a {@code full} back-pressure alert at their
 *       site;</li>
 *   <li>no figure anywhere shows utilisation above 100%.</li>
 * </ul>
 */
class QueueCorpusTest {

    /** The queue probe alone, little else to stop at exit: on a loaded machine mech's stop has 500 ms. */
    private static final String OPTIONS = "probes.queues=on,probes.queues.sample=50ms,probes.locks=off,hiccup.log=,hiccup.causes=off,"
        + "prometheus=off,report=off,report.json=";
    private static final Pattern CASE = Pattern.compile("case=(\\w+) type=(\\S+) capacity=(\\w+)");
    private static final Pattern MOVED = Pattern.compile("moved=(\\w+) in=(\\d+) out=(\\d+) high=(\\d+)");
    private static final Pattern PERCENT = Pattern.compile("\\((\\d+)%\\)");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "on {0}")
    @MethodSource("io.mech.it.Jdks#all")
    void capacityIsTheLibrarysOwnAndOnlyAStalledConsumerAlerts(final Path jdk) throws Exception {
        final Path json = dir.resolve("report.json");
        // Agrona 2 reads jdk.internal.misc.Unsafe, as its users are told to let it
        final List<String> command = new ArrayList<>(Forked.javaWithMech(jdk, OPTIONS + json,
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"));
        command.addAll(List.of("-cp", Paths.testClassesWith(org.jctools.queues.MpscArrayQueue.class,
            org.agrona.concurrent.OneToOneConcurrentArrayQueue.class, com.lmax.disruptor.RingBuffer.class),
            QueueCorpus.class.getName()));
        final Forked.Result result = Forked.run(dir, command, 90);
        assertEquals(0, result.exit(), result.err());
        assertEquals(List.of(), result.mechLines(), "the probe starts without a word");
        final String report = Files.readString(json);
        final String lines = String.join("\n", ReportRows.lines(report, "queues"));
        final List<Map<String, String>> rows = ReportRows.of(report, "queues");

        final Matcher each = CASE.matcher(result.out());
        int cases = 0;
        while (each.find()) {
            cases++;
            final String name = each.group(1);
            // MpmcUnboundedXaddArrayQueue pools its chunks in an SpscArrayQueue of its own, which is the library's: one row
            final Map<String, String> row = row(rows, name, report);
            assertEquals(each.group(2), row.get("type"), name);
            final String capacity = each.group(3);
            if (capacity.equals("unbounded")) {
                assertEquals("unbounded", row.get("bound"), name + " is unbounded: " + row);
                assertTrue(!row.containsKey("capacity") && !row.containsKey("utilization"), name + ": " + row);
            } else {
                assertEquals(capacity, row.get("capacity"), name + ": the bound its library states: " + row);
                assertEquals("bounded", row.get("bound"), name + ": " + row);
            }
            assertEquals("7", row.get("depth"), name + ": ten in, three out: " + row);
            if (!row.get("enqueued").equals("-1")) {
                assertEquals("10", row.get("enqueued"), name + ": " + row);
                assertEquals("3", row.get("dequeued"), name + ": " + row);
            }
            assertEquals("0", row.get("alerts"), name + " stands idle, far from full: " + row);
        }
        assertEquals(19, cases, result.out());
        assertEquals("4096", row(rows, "mpscArray", report).get("capacity"), "the issue's MpscArrayQueue(4096)");

        final Matcher moved = MOVED.matcher(result.out());
        int pipelines = 0;
        int keptUp = 0;
        while (moved.find()) {
            pipelines++;
            final String name = moved.group(1);
            final Map<String, String> row = row(rows, name, report);
            assertTrue(Long.parseLong(moved.group(3)) >= 1_000, name + " moved elements: " + moved.group());
            assertEquals("bounded", row.get("bound"), name + ": " + row);
            // a full alert takes 3 samples in a row at 70% or more; a queue never that deep after a burst cannot have one
            if (Long.parseLong(moved.group(4)) < 0.7 * Long.parseLong(row.get("capacity"))) {
                keptUp++;
                assertEquals("0", row.get("alerts"), name + " keeps up: no back pressure: " + row + "\n" + lines);
            }
        }
        assertEquals(4, pipelines, result.out());
        assertTrue(keptUp >= 1, "at least one consumer kept up, so no alert was allowed: " + result.out());
        assertEquals("4096", row(rows, "keepUpDisruptor", report).get("capacity"), "the ring's getBufferSize()");

        for (final String stalled : List.of("stalledOneToOne", "stalledManyToOne", "stalledDisruptor")) {
            final Map<String, String> row = row(rows, stalled, report);
            assertTrue(Long.parseLong(row.get("alerts")) >= 1, stalled + " is full: " + row + "\n" + lines);
            final String prefix = "back pressure: queue " + row.get("type") + " at corpus.QueueCorpus." + stalled + ":";
            final List<String> alertLines = lines.lines().map(String::strip).filter(l -> l.startsWith(prefix)).toList();
            assertTrue(!alertLines.isEmpty() && alertLines.get(0).contains(" full, depth "),
                stalled + ": the report names queue and site, full: " + lines);
            if (!stalled.equals("stalledDisruptor")) {
                // filled and never polled; the ring's handler moves a batch now and then
                assertTrue(alertLines.get(0).endsWith("depth " + row.get("capacity") + "/" + row.get("capacity") + " (100%)"), alertLines.get(0));
            }
        }
        assertTrue(result.out().contains("alerted=corpus.QueueCorpus.stalledDisruptor,corpus.QueueCorpus.stalledManyToOne,"
            + "corpus.QueueCorpus.stalledOneToOne\n"), "alerts on the stalled queues alone, as the JFR event told them: " + result.out());

        for (final Map<String, String> row : rows) {
            if (row.containsKey("utilization")) {
                assertTrue(Double.parseDouble(row.get("utilization")) <= 1.0, "utilisation above 100%: " + row);
            }
            assertTrue(!"1".equals(row.get("capacity")), "no bound of 1 guessed: " + row);
        }
        final Matcher percent = PERCENT.matcher(lines);
        while (percent.find()) {
            assertTrue(Integer.parseInt(percent.group(1)) <= 100, "utilisation above 100% in the report: " + lines);
        }
    }

    private static Map<String, String> row(final List<Map<String, String>> rows, final String method, final String report) {
        final List<Map<String, String>> mine = rows.stream()
            .filter(r -> r.get("site").startsWith("corpus.QueueCorpus." + method + ":")).toList();
        assertEquals(1, mine.size(), "one queue made in " + method + ": " + report);
        return mine.get(0);
    }
}
