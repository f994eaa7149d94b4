package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.SleepingHost;
import io.mech.testing.Await;
import io.mech.testing.JsonReader;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One answer, both ways: a fleet's hiccups read from a real Prometheus and from {@code replay}
 * of the same JVMs' logs agree.
 *
 * <p><b>The fleet.</b> Ten small JVMs (64 MB heaps) sleep under mech, each serving
 * {@code /metrics} on its own loopback port and logging to its own file, with 5 s log intervals
 * that begin 5 s after start-up; three of them are stopped with SIGSTOP (for 310, 620 and 310 ms)
 * early in their second interval. Prometheus scrapes all ten every second, the first time while
 * they have recorded nothing yet (checked).
 *
 * <p><b>The window.</b> {@code mech_hiccup_seconds} holds the intervals closed since recording
 * began, so the window both sides read is <em>each JVM's first {@value #WINDOW_INTERVALS}
 * intervals</em>. The test waits (on conditions: no fixed sleep) for an evaluation time T at
 * which every JVM's latest scrape holds exactly those intervals, which it checks against each
 * log's own interval counts, and then asks replay for the intervals that start up to a time E
 * that falls after the last JVM's interval {@value #WINDOW_INTERVALS} began and before the first
 * JVM's ended. Replay selects intervals by their start, so E selects the same intervals from
 * every log. The JVMs start within a second or two of each other, far less than an interval,
 * which is what lets one E serve all ten; the test checks it.
 *
 * <p><b>What is compared, and how close it must be.</b>
 * <ul>
 * <li>Count: {@code histogram_count(sum(mech_hiccup_seconds{jvm="host",thread=""}))} at T
 *     equals replay's merged count exactly: bucket counts add without loss on both sides.
 * <li>p99: {@code histogram_quantile(0.99, sum(...))} at T against replay's merged p99. Prometheus
 *     finds the native bucket holding the rank and interpolates inside it; replay reports
 *     HdrHistogram's value, which lies in that bucket too. At schema 3 a bucket spans a factor of
 *     2^(1/8) (9%), so the two may differ by at most that, widened by 0.1% because mech places each
 *     HdrHistogram sub-bucket (at most 1/1024 wide at 3 digits) by its middle value.
 * <li>p99 by rate, the query a dashboard uses:
 *     {@code histogram_quantile(0.99, sum(rate(mech_hiccup_seconds{...}[1m])))} at T, its range
 *     reaching back before any JVM started. Each series' rate is its whole window scaled by a
 *     factor of its own: Prometheus extrapolates each series to the range's ends, by how near its
 *     first and last scrape fall to them. The sum therefore weighs the JVMs unequally, and its
 *     share of samples above any value is the unweighted share times at most ρ or divided by at most
 *     ρ, ρ being the largest factor over the smallest. The test measures every JVM's factor
 *     ({@code increase} over the running total) and holds the answer between replay's percentiles
 *     at tails of 1%·ρ and 1%/ρ (the nearest rows of its distribution outside those), widened by
 *     one bucket as above.
 * <li>Max: the largest {@code mech_hiccup_hdr_seconds{quantile="1.0"}} (each JVM's HdrHistogram
 *     maximum since start) equals replay's max exactly, and {@code histogram_quantile(1, ...)}, the
 *     upper bound of the highest native bucket, holds it within one bucket width.
 * </ul>
 * Only {@code jvm="host"} with no {@code thread} label is read: the platform thread's meter, the
 * one the untagged log lines hold (the virtual-thread meter's lines are tagged and its series
 * labelled {@code thread="virtual"}).
 */
@QuietHosts
class FleetAgreementTest {

    private static final int HOSTS = 10;
    private static final int INTERVAL_SECONDS = 5;
    /**
     * Recording (and the log) begins this long after start-up, while {@code /metrics} serves an
     * empty histogram from the start: time for Prometheus to scrape every JVM before it holds
     * anything, which {@code rate} over the whole lifetime needs.
     */
    private static final int DELAY_SECONDS = 5;
    /** The window: each JVM's first this many intervals. */
    private static final int WINDOW_INTERVALS = 3;
    /** Hosts stopped, and for how many times {@link Forked#STALL_MILLIS}. */
    private static final Map<Integer, Integer> STALLS = Map.of(1, 1, 4, 2, 7, 1);
    /** Schema 3: neighbouring bucket bounds differ by this factor. */
    private static final double BUCKET_WIDTH = Math.pow(2, 1.0 / 8);
    /** The widest HdrHistogram sub-bucket at 3 significant digits, relative to its value. */
    private static final double SUB_BUCKET = 1 + 1.0 / 1024;
    private static final String PLATFORM_METER = "mech_hiccup_seconds{jvm=\"host\",thread=\"\"}";
    private static final long DEADLINE_NANOS = 60_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void prometheusAndReplayGiveOneAnswer() throws Exception {
        final int[] ports = new int[HOSTS];
        for (int i = 0; i < HOSTS; i++) {
            ports[i] = PrometheusServer.freePort();
        }
        final List<Forked> hosts = new ArrayList<>();
        try (PrometheusServer prometheus = PrometheusServer.start(dir, ports)) {
            for (int i = 0; i < HOSTS; i++) {
                hosts.add(Forked.start(dir, Forked.javaWithMech(Path.of(System.getProperty("java.home")),
                    "hiccup.interval=" + INTERVAL_SECONDS + "s,hiccup.delay=" + DELAY_SECONDS + "s,hiccup.log=" + log(i)
                        + ",hiccup.causes=off,probes.locks=off,"
                        + "prometheus.jvm=off,report=off,prometheus.port=" + ports[i],
                    "-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", Paths.testClasses(),
                    SleepingHost.class.getName(), "120000")));
            }
            awaitEmptyScrapes(prometheus, ports, hosts);
            stallSome(hosts);
            final double t = awaitCommonWindow(prometheus, ports);
            final long endMillis = replayEnd();
            final Merged replay = replay(endMillis);
            report(prometheus, t, replay);
        } finally {
            for (final Forked host : hosts) {
                host.terminate();
            }
            for (final Forked host : hosts) {
                host.await(30);
            }
        }
    }

    private Path log(final int host) {
        return dir.resolve("host-" + host + ".hlog");
    }

    /**
     * Waits until Prometheus has scraped every host, and checks that each first scrape came before
     * the host's first interval closed: a running total seen first at zero is what lets
     * {@code rate} over the whole lifetime scale each host's window rather than drop part of it.
     */
    private static void awaitEmptyScrapes(final PrometheusServer prometheus, final int[] ports, final List<Forked> hosts)
        throws Exception {
        final AtomicReference<Map<String, Double>> seen = new AtomicReference<>(Map.of());
        final Map<String, Double> scraped;
        try {
            scraped = Await.value("every host scraped by Prometheus", Duration.ofNanos(DEADLINE_NANOS), Duration.ofMillis(200), () -> {
                seen.set(PrometheusServer.valuesByInstance(prometheus.query("histogram_count(" + PLATFORM_METER + ")",
                    System.currentTimeMillis() / 1000.0)));
                return seen.get().size() >= HOSTS ? seen.get() : null;
            });
        } catch (final AssertionError notAll) {
            final StringBuilder missing = new StringBuilder();
            for (int i = 0; i < HOSTS; i++) {
                if (!seen.get().containsKey("127.0.0.1:" + ports[i])) {
                    missing.append("\nhost ").append(i).append(" on ").append(ports[i]).append(", stderr: ")
                        .append(hosts.get(i).errSoFar());
                }
            }
            throw new AssertionError("Prometheus scraped only " + seen.get() + " within 60 s; never:" + missing, notAll);
        }
        for (final int port : ports) {
            assertEquals(0.0, scraped.get("127.0.0.1:" + port), "127.0.0.1:" + port + " was first scraped after its first "
                + "interval closed, " + (DELAY_SECONDS + INTERVAL_SECONDS) + " s after start-up: " + scraped);
        }
    }

    /** Stops each chosen host once its first interval is logged, so the stall falls in its second. */
    private void stallSome(final List<Forked> hosts) throws Exception {
        for (final Map.Entry<Integer, Integer> stall : STALLS.entrySet()) {
            final Path log = log(stall.getKey());
            Await.until("an interval logged by host " + stall.getKey(), Duration.ofNanos(DEADLINE_NANOS),
                () -> !LoggedIntervals.of(log).isEmpty());
            hosts.get(stall.getKey()).stopFor(Forked.STALL_MILLIS * stall.getValue());
        }
    }

    /**
     * Waits for a time T at which every host's latest scrape holds exactly its first
     * {@value #WINDOW_INTERVALS} logged intervals. T trails the clock by 2 s: a scrape's samples
     * carry its start time and are stored when it ends, at most a scrape timeout (1 s) later, so
     * nothing at or before T can still arrive.
     */
    private double awaitCommonWindow(final PrometheusServer prometheus, final int[] ports) throws Exception {
        final AtomicReference<String> seen = new AtomicReference<>("");
        try {
            return Await.value("a moment at which Prometheus held every host's first " + WINDOW_INTERVALS + " intervals",
                Duration.ofNanos(DEADLINE_NANOS), Duration.ofMillis(200), () -> window(prometheus, ports, seen));
        } catch (final AssertionError none) {
            throw new AssertionError(none.getMessage() + "; last seen:\n" + seen.get(), none);
        }
    }

    /** T, 2 s ago, when every host's latest scrape at T holds its window; else null, and what it held is seen. */
    private Double window(final PrometheusServer prometheus, final int[] ports, final AtomicReference<String> seen) throws Exception {
        final double t = System.currentTimeMillis() / 1000.0 - 2;
        final Map<String, Double> scraped = PrometheusServer.valuesByInstance(prometheus.query("histogram_count(" + PLATFORM_METER + ")", t));
        boolean all = true;
        final StringBuilder state = new StringBuilder();
        for (int i = 0; i < HOSTS; i++) {
            final List<LoggedIntervals.Interval> logged = LoggedIntervals.of(log(i));
            final Double count = scraped.get("127.0.0.1:" + ports[i]);
            state.append(String.format(Locale.ROOT, "host %d: scraped %s, logged %d intervals%n", i, count, logged.size()));
            all &= count != null && logged.size() >= WINDOW_INTERVALS
                && count == LoggedIntervals.countOfFirst(logged, WINDOW_INTERVALS);
        }
        seen.set(state.toString());
        return all ? t : null;
    }

    /**
     * A time after every host's interval {@value #WINDOW_INTERVALS} began and before any host's
     * ended: midway between the two.
     */
    private long replayEnd() throws Exception {
        long lastStart = Long.MIN_VALUE;
        long firstEnd = Long.MAX_VALUE;
        for (int i = 0; i < HOSTS; i++) {
            final LoggedIntervals.Interval last = LoggedIntervals.of(log(i)).get(WINDOW_INTERVALS - 1);
            lastStart = Math.max(lastStart, last.startMillis());
            firstEnd = Math.min(firstEnd, last.endMillis());
        }
        assertTrue(lastStart + 2 < firstEnd, "the hosts' intervals are too far apart for one window: interval "
            + WINDOW_INTERVALS + " began as late as " + lastStart + " and ended as early as " + firstEnd + " (epoch ms)");
        return (lastStart + firstEnd) / 2;
    }

    /** The merged figures of {@code replay}, in seconds. */
    private record Merged(long count, int intervals, double p99, double max, List<double[]> distribution) {

        /** The value of the last distribution row at or below a percentile level (a fraction). */
        double atOrBelow(final double level) {
            double value = 0;
            for (final double[] row : distribution) {
                if (row[1] <= level) {
                    value = row[0];
                }
            }
            return value;
        }

        /** The value of the first distribution row at or above a percentile level (a fraction). */
        double atOrAbove(final double level) {
            for (final double[] row : distribution) {
                if (row[1] >= level) {
                    return row[0];
                }
            }
            return max;
        }
    }

    private Merged replay(final long endMillis) throws Exception {
        final Forked.Result result = Forked.run(dir, List.of(Jdks.java(Path.of(System.getProperty("java.home"))), "-jar",
            Paths.mechJar().toString(), "replay", "--format", "json", "--unit-ratio", "1000000000",
            "--end", Instant.ofEpochMilli(endMillis).toString(), dir.toString()), 60);
        assertEquals(0, result.exit(), "replay failed: " + result.err());
        final Map<?, ?> view = ((List<?>) JsonReader.object(result.out()).get("views")).stream().map(v -> (Map<?, ?>) v)
            .filter(v -> "all".equals(v.get("log"))).findFirst()
            .orElseThrow(() -> new AssertionError("no merged view in replay's JSON: " + result.out()));
        final List<double[]> distribution = new ArrayList<>();
        for (final Object each : (List<?>) view.get("distribution")) {
            final Map<?, ?> row = (Map<?, ?>) each;
            distribution.add(new double[] {number(row, "value").doubleValue(), number(row, "percentile").doubleValue()});
        }
        assertFalse(distribution.isEmpty(), "no distribution rows in replay's merged view: " + view);
        final Map<?, ?> percentiles = (Map<?, ?>) view.get("percentiles");
        return new Merged(number(view, "count").longValueExact(), number(view, "intervals").intValueExact(),
            number(percentiles, "p99").doubleValue(), number(percentiles, "max").doubleValue(), distribution);
    }

    private static BigDecimal number(final Map<?, ?> object, final String name) {
        return (BigDecimal) object.get(name);
    }

    private static double single(final PrometheusServer prometheus, final String promql, final double t) throws Exception {
        final List<Double> values = PrometheusServer.values(prometheus.query(promql, t));
        assertEquals(1, values.size(), promql + " -> " + values);
        return values.get(0);
    }

    private static void report(final PrometheusServer prometheus, final double t, final Merged replay) throws Exception {
        final double count = single(prometheus, "histogram_count(sum(" + PLATFORM_METER + "))", t);
        final double p99 = single(prometheus, "histogram_quantile(0.99, sum(" + PLATFORM_METER + "))", t);
        final double p99Rate = single(prometheus, "histogram_quantile(0.99, sum(rate(" + PLATFORM_METER + "[1m])))", t);
        final double rho = weightSpread(prometheus, t);
        final double rateLow = replay.atOrBelow(1 - 0.01 * rho);
        final double rateHigh = replay.atOrAbove(1 - 0.01 / rho);
        final double topBucket = single(prometheus, "histogram_quantile(1, sum(" + PLATFORM_METER + "))", t);
        final double hdrMax = single(prometheus,
            "max(mech_hiccup_hdr_seconds{jvm=\"host\",thread=\"\",quantile=\"1.0\"})", t);
        System.out.printf(Locale.ROOT, "fleet of %d, first %d intervals each: Prometheus count %.0f p99 %.6f s (by rate %.6f s,"
                + " weights spread %.4f, replay's rows around it %.6f-%.6f s) max %.6f s (top bucket %.6f s);"
                + " replay count %d p99 %.6f s max %.6f s over %d intervals%n",
            HOSTS, WINDOW_INTERVALS, count, p99, p99Rate, rho, rateLow, rateHigh, hdrMax, topBucket, replay.count(), replay.p99(),
            replay.max(), replay.intervals());
        assertEquals(HOSTS * WINDOW_INTERVALS, replay.intervals(), "replay read each host's window");
        assertEquals(replay.count(), (long) count, "count");
        within(p99, replay.p99(), BUCKET_WIDTH * SUB_BUCKET, "p99");
        assertTrue(p99Rate >= rateLow / (BUCKET_WIDTH * SUB_BUCKET) && p99Rate <= rateHigh * BUCKET_WIDTH * SUB_BUCKET,
            "p99 by rate " + p99Rate + " s lies within a bucket of replay's " + rateLow + "-" + rateHigh
                + " s, its percentiles at the tails the JVMs' unequal weights (spread " + rho + ") allow");
        assertEquals(replay.max(), hdrMax, "max");
        assertTrue(topBucket >= replay.max() / SUB_BUCKET && topBucket <= replay.max() * BUCKET_WIDTH * SUB_BUCKET,
            "max " + replay.max() + " s lies in the top native bucket, whose upper bound is " + topBucket + " s");
        assertTrue(replay.max() > 0.5, "the 620 ms stop is in the window: max " + replay.max() + " s");
    }

    /**
     * The largest over the smallest of the factors by which {@code rate} scales each JVM's window:
     * its {@code increase} over the range against the running total, which started from nothing
     * within the range.
     */
    private static double weightSpread(final PrometheusServer prometheus, final double t) throws Exception {
        final Map<String, Double> increased = PrometheusServer.valuesByInstance(
            prometheus.query("histogram_count(increase(" + PLATFORM_METER + "[1m]))", t));
        final Map<String, Double> totals = PrometheusServer.valuesByInstance(prometheus.query("histogram_count(" + PLATFORM_METER + ")", t));
        assertEquals(totals.keySet(), increased.keySet(), "every JVM has a rate");
        assertEquals(HOSTS, totals.size(), "every JVM has a total: " + totals);
        double smallest = Double.MAX_VALUE;
        double largest = 0;
        for (final Map.Entry<String, Double> total : totals.entrySet()) {
            final double factor = increased.get(total.getKey()) / total.getValue();
            // below 1, the first scrape already held an interval, which rate then leaves out: no longer a scale
            assertTrue(factor >= 1, total.getKey() + ": rate saw only " + factor + " of the running total");
            smallest = Math.min(smallest, factor);
            largest = Math.max(largest, factor);
        }
        return largest / smallest;
    }

    private static void within(final double prometheus, final double replay, final double factor, final String what) {
        assertTrue(prometheus <= replay * factor && prometheus >= replay / factor,
            what + ": Prometheus " + prometheus + " s, replay " + replay + " s, allowed a factor of " + factor);
    }
}
