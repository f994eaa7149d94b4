package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.mech.examples.Finding;
import io.mech.examples.Kernels;
import io.mech.examples.VariantDescriptor;
import io.mech.examples.ipc.IpcKernel;
import io.mech.testing.JsonReader;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two processes, one story: the ipc kernel's producer JVM and the consumer JVM it starts, each
 * under mech with its own log and JSON report, on the running JDK. In {@code stopped-consumer}
 * the kernel stops the consumer (SIGSTOP) for the middle 2 s of a 6 s run: the producer's report
 * shows its mapped queue filled to its bound and a back-pressure alert, read through the queue's
 * own indices in shared memory; {@code replay} of both logs puts the consumer's longest hiccup
 * (the stop) at the wall time the kernel stopped it, while the producer's hiccups at that time
 * stay short. The twin, {@code steady}, is quiet on both sides: no alert, a queue near empty on
 * average and no long hiccup in either log.
 */
class IpcKernelTest {

    private static final double SECONDS = 6;
    /** Far above a loaded 2-core machine's idle hiccups (tens of ms), far below the 2 s stop. */
    private static final double QUIET_SECONDS = 0.5;

    @TempDir
    Path dir;

    /** One of replay's worst intervals: which log, when, and its longest hiccup in seconds. */
    private record Worst(String log, long startMillis, long lengthMillis, double max) {
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"stopped-consumer", "steady"})
    void theConsumersStopIsTheProducersQueueDepth(final String variant) throws Exception {
        final VariantDescriptor truth = Kernels.named("ipc").orElseThrow().variant(variant).orElseThrow();
        final boolean stopped = truth.findings().contains(Finding.QUEUE_DEPTH);
        final Path java = Path.of(System.getProperty("java.home"));
        final Path producerLog = dir.resolve("producer.hlog");
        final Path consumerLog = dir.resolve("consumer.hlog");
        final Path producerReport = dir.resolve("producer.json");
        final Path consumerReport = dir.resolve("consumer.json");
        final String common = "hiccup.interval=1s,hiccup.causes=off,probes.locks=off,prometheus=off,report=off,";
        final String consumer = "-Xmx64m -javaagent:" + Paths.mechJar() + "=" + common + "hiccup.log=" + consumerLog
            + ",report.json=" + consumerReport;
        final Forked.Result run = Forked.run(dir, Forked.javaWithMech(java, common + "probes.queues=on,probes.queues.sample=200ms,"
                + "probes.queues.include=io.mech.examples.ipc,hiccup.log=" + producerLog + ",report.json=" + producerReport,
            "-Xmx64m", "-D" + IpcKernel.PEER_JVM_ARGS + "=" + consumer, "-jar", Paths.examplesJar().toString(), "ipc", variant,
            "--seconds", Double.toString(SECONDS)), 120);
        assertEquals(0, run.exit(), run.out() + run.err());
        assumeFalse(run.out().contains("status=skipped"), "the kernel cannot run here: " + run.err());
        assertEquals(List.of(), run.mechLines(), "mech says nothing in either process (the consumer's stderr is the producer's)");
        assertTrue(Files.isRegularFile(consumerReport), "the consumer ran under mech: " + run.err());

        final Map<String, String> queue = mappedQueue(Files.readString(producerReport));
        assertEquals(Integer.toString(IpcKernel.CAPACITY), queue.get("capacity"), "the bound the queue promises: " + queue);
        final long maxDepth = Long.parseLong(queue.get("max_depth"));
        final long alerts = Long.parseLong(queue.get("alerts"));
        final List<Worst> worst = worst(producerLog, consumerLog);
        final double producerWorst = worst.stream().filter(w -> w.log().endsWith("producer.hlog")).mapToDouble(Worst::max)
            .max().orElse(0);
        System.out.printf("ipc %s: producer's queue max depth %d of %s, %d alerts; worst intervals %s; kernel said: %s%n",
            variant, maxDepth, queue.get("capacity"), alerts, worst, run.out().trim());
        assertTrue(producerWorst < QUIET_SECONDS, "the producer never stopped: " + worst);
        if (stopped) {
            final long stoppedAt = field(run.out(), "stopped_at");
            final long stoppedMillis = field(run.out(), "stopped_ms");
            assertEquals(IpcKernel.CAPACITY, maxDepth, "the queue filled while its consumer was stopped: " + queue);
            assertTrue(alerts >= 1, "back pressure raised: " + queue);
            final Worst stop = worst.get(0);
            assertTrue(stop.log().endsWith("consumer.hlog"), "the longest hiccup is the consumer's: " + worst);
            assertTrue(stop.max() * 1000 >= stoppedMillis * 0.9, "the consumer's log holds the " + stoppedMillis + " ms stop: " + stop);
            // the meter records the stop when it runs again, into the interval open then (or the next, should the log thread close it first)
            final long continued = stoppedAt + stoppedMillis;
            assertTrue(stop.startMillis() <= continued + 1_000 && stop.startMillis() + stop.lengthMillis() >= stoppedAt,
                "the consumer's stall lies where the kernel stopped it, " + Instant.ofEpochMilli(stoppedAt) + " for "
                    + stoppedMillis + " ms: " + stop);
        } else {
            assertEquals(0, alerts, "the twin raises nothing: " + queue);
            // a consumer descheduled for a moment on a loaded machine leaves a short backlog, which the mean absorbs
            assertTrue(Double.parseDouble(queue.get("mean_depth")) < IpcKernel.CAPACITY / 16.0, "near empty on average: " + queue);
            assertFalse(worst.isEmpty(), "replay read both logs");
            assertTrue(worst.get(0).max() < QUIET_SECONDS, "no long hiccup on either side: " + worst);
        }
    }

    private static Map<String, String> mappedQueue(final String report) {
        final List<Map<String, String>> rows = ReportRows.of(report, "queues").stream()
            .filter(r -> "io.mech.examples.ipc.MappedQueue".equals(r.get("type"))).toList();
        assertEquals(1, rows.size(), "one mapped queue in the producer's report: " + report);
        return rows.get(0);
    }

    /** Replay's worst intervals across both logs, worst first, each on absolute time. */
    private List<Worst> worst(final Path producerLog, final Path consumerLog) throws Exception {
        final Forked.Result replay = Forked.run(dir, List.of(Jdks.java(Path.of(System.getProperty("java.home"))), "-jar",
            Paths.mechJar().toString(), "replay", "--format", "json", "--unit-ratio", "1000000000",
            producerLog.toString(), consumerLog.toString()), 60);
        assertEquals(0, replay.exit(), replay.err());
        final List<Worst> worst = new ArrayList<>();
        for (final Object each : (List<?>) JsonReader.object(replay.out()).get("worst")) {
            final Map<?, ?> interval = (Map<?, ?>) each;
            worst.add(new Worst((String) interval.get("log"), Instant.parse((String) interval.get("start")).toEpochMilli(),
                Math.round(((BigDecimal) interval.get("length_s")).doubleValue() * 1000), ((BigDecimal) interval.get("max")).doubleValue()));
        }
        return worst;
    }

    private static long field(final String out, final String key) {
        final Matcher m = Pattern.compile(key + "=([0-9]+)").matcher(out);
        assertTrue(m.find(), key + " in " + out);
        return Long.parseLong(m.group(1));
    }
}
