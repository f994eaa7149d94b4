package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import corpus.servers.JettyPools;
import corpus.servers.NettyLoops;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The queue probe on real servers' queues, with no include naming their packages (the default
 * include is the driver's own package, which names the call that made each, after the library's
 * own site and {@code via}): Netty 4.2's event loop task queue, its relocated copy of
 * JCTools' MPSC queue, and Jetty 12's job queue, a {@code BlockingArrayQueue} that idle workers
 * take from with a timed poll. Each case both ways, against the truth its driver measured:
 * <ul>
 *   <li>a flooded Netty loop's queue is found, unbounded, as deep as Netty's own
 *       {@code pendingTasks()} said, with back pressure; a loop that keeps up raises none;</li>
 *   <li>(on 17 and 25: each host runs 14 s, for mech's wait is smoothed over 10 s) a Jetty pool
 *       with fewer connections than workers has a job queue empty at most samples, and no alert (its
 *       depth once drifted to 1,362 with the timed polls uncounted); an overloaded one has a
 *       Little's-law wait within 20% of the time the clients' requests spent queued.</li>
 * </ul>
 * The Jetty host stops its servers and lets them be collected before it exits: both job queues
 * must still be in the report, among the dozens of idle buffer queues collected with them.
 */
class ServerQueuesTest {

    private static final String OPTIONS = "probes.queues=on,probes.queues.sample=250ms,probes.locks=off,hiccup.log=,"
        + "hiccup.causes=off,prometheus=off,report=off,report.json=";
    private static final Pattern NETTY = Pattern.compile("case=(\\w+) queue=(\\S+) pending_max=(\\d+)");
    private static final Pattern JETTY = Pattern.compile("case=(\\w+) requests=(\\d+) queued_ms=([0-9.]+) handler_ms=([0-9.]+)");
    /** The default deep threshold of an unbounded queue. */
    private static final long DEEP = 10_000;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "on {0}")
    @MethodSource("io.mech.it.Jdks#all")
    void nettysFloodedLoopIsFoundUnboundedWithBackPressureAndItsTwinIsSilent(final Path jdk) throws Exception {
        final Path json = dir.resolve("report.json");
        final List<String> command = new ArrayList<>(Forked.javaWithMech(jdk, OPTIONS + json));
        command.addAll(List.of("-cp", Paths.testClassesWith(io.netty.channel.EventLoop.class, io.netty.util.concurrent.EventExecutor.class,
            io.netty.buffer.ByteBuf.class, io.netty.resolver.AddressResolver.class), NettyLoops.class.getName(), "2"));
        final Forked.Result result = Forked.run(dir, command, 90);
        assertEquals(0, result.exit(), result.err());
        assertEquals(List.of(), result.mechLines(), "the probe starts without a word");
        final String report = Files.readString(json);
        final String lines = String.join("\n", ReportRows.lines(report, "queues"));
        final Matcher truth = NETTY.matcher(result.out());
        int cases = 0;
        while (truth.find()) {
            cases++;
            final String name = truth.group(1);
            final long pendingMax = Long.parseLong(truth.group(3));
            // a loop has more queues of that type than its tasks' (its tail tasks', for one): the deepest is the tasks'
            final List<Map<String, String>> loop = rows(report, "NettyLoops." + name).stream()
                .filter(r -> r.get("type").equals(truth.group(2))).toList();
            assertTrue(loop.size() >= 2, name + "'s loop's queues of its task queue's class " + truth.group(2) + ": "
                + rows(report, "NettyLoops." + name));
            final Map<String, String> row = loop.stream().max(Comparator.comparingLong(r -> Long.parseLong(r.get("max_depth")))).get();
            assertTrue(row.get("site").startsWith("io.netty."), "Netty made it, for the driver's call: " + row);
            for (final Map<String, String> queue : loop) {
                assertTrue(queue.get("type").contains(".shaded.org.jctools.queues."), "Netty's relocated JCTools: " + queue);
                assertEquals("unbounded", queue.get("bound"), name + ": " + queue);
                if (queue != row) {
                    assertEquals("0", queue.get("alerts"), name + "'s tail tasks are idle: " + queue);
                }
            }
            final long maxDepth = Long.parseLong(row.get("max_depth"));
            if (name.equals("flooded")) {
                assertTrue(pendingMax >= DEEP, "the driver flooded the loop: " + truth.group());
                assertTrue(maxDepth >= pendingMax / 2 && maxDepth <= 2 * pendingMax,
                    "depth " + maxDepth + " against Netty's pendingTasks() up to " + pendingMax + ": " + row);
                assertTrue(Long.parseLong(row.get("alerts")) >= 1, "back pressure on the flooded loop: " + row + "\n" + lines);
                assertTrue(lines.contains("back pressure: queue " + row.get("type") + " at " + row.get("site") + " deep"), lines);
            } else {
                assertTrue(maxDepth < DEEP, name + " keeps up: " + row + " (Netty's pendingTasks() up to " + pendingMax + ")");
                assertEquals("0", row.get("alerts"), name + " keeps up: no back pressure: " + row + "\n" + lines);
            }
        }
        assertEquals(2, cases, result.out());
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("io.mech.it.Jdks#oldestAndNewest")
    void jettysJobQueueIsFoundEmptyUnderLightLoadAndItsWaitMatchesTheClientsWhenOverloaded(final Path jdk) throws Exception {
        final Path json = dir.resolve("report.json");
        final List<String> command = new ArrayList<>(Forked.javaWithMech(jdk, OPTIONS + json));
        // 14 s with the last 11 measured: mech's wait is smoothed over 10 s, and the first second fills the queue
        command.addAll(List.of("-cp", Paths.testClassesWith(org.eclipse.jetty.server.Server.class, org.eclipse.jetty.http.HttpField.class,
            org.eclipse.jetty.io.EndPoint.class, org.eclipse.jetty.util.Callback.class, org.slf4j.Logger.class),
            JettyPools.class.getName(), "14", "11"));
        final Forked.Result result = Forked.run(dir, command, 120);
        assertEquals(0, result.exit(), result.err());
        assertEquals(List.of(), result.mechLines(), "the probe starts without a word");
        final String report = Files.readString(json);
        final String lines = String.join("\n", ReportRows.lines(report, "queues"));
        final Matcher truth = JETTY.matcher(result.out());
        int cases = 0;
        while (truth.find()) {
            cases++;
            final String name = truth.group(1);
            final double queuedMs = Double.parseDouble(truth.group(3));
            final List<Map<String, String>> pool = rows(report, "JettyPools." + name).stream()
                .filter(r -> r.get("type").equals("org.eclipse.jetty.util.BlockingArrayQueue")).toList();
            assertEquals(1, pool.size(), name + "'s job queue: " + rows(report, "JettyPools." + name));
            final Map<String, String> row = pool.get(0);
            assertEquals("org.eclipse.jetty.util.BlockingArrayQueue", row.get("type"), name + ": " + row);
            assertTrue(Long.parseLong(truth.group(2)) >= 100, name + " served requests: " + truth.group());
            assertEquals("true", row.get("collected"), name + "'s pool was collected before exit, and its job queue is still reported: " + row);
            if (name.equals("light")) {
                // Jetty queues a few jobs at a time even here (up to 5 as the three connections close, read every
                // 200 us beside a quiet run), so the deepest sample says little: the queue is empty at most samples
                assertTrue(Double.parseDouble(row.getOrDefault("mean_depth", "NaN")) < 1, "empty at most samples: " + row + "\n" + lines);
                assertEquals("0", row.get("depth"), "no drift: " + row);
                assertEquals("0", row.get("alerts"), row + "\n" + lines);
                assertFalse(row.containsKey("growth_per_s") && Double.parseDouble(row.get("growth_per_s")) > 1, row.toString());
            } else {
                assertTrue(queuedMs >= JettyPools.HANDLER_MILLIS, "requests queued for at least a handler's time: " + truth.group());
                assertTrue(row.containsKey("wait_ms"), "a wait estimate: " + row);
                final double waitMs = Double.parseDouble(row.get("wait_ms"));
                assertTrue(Math.abs(waitMs - queuedMs) <= 0.2 * queuedMs,
                    String.format("mech's wait %.1f ms against %.1f ms the clients' requests queued: %s", waitMs, queuedMs, row));
            }
        }
        assertEquals(2, cases, result.out());
        assertTrue(result.out().contains("pools_collected=true"), result.out());
    }

    /** @return the queues a library made for the driver's method, whose site names it after {@code via} */
    private static List<Map<String, String>> rows(final String report, final String method) {
        return ReportRows.of(report, "queues").stream()
            .filter(r -> r.get("site").contains(" via corpus.servers." + method + ":")).toList();
    }
}
