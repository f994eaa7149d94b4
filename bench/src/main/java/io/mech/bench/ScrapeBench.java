package io.mech.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * /metrics under load: the latency of one scrape with every family registered (host, control
 * JVM and client_java's JVM metrics) on a kept-alive connection as Prometheus scrapes, then 50
 * concurrent scrapers, with the host's live heap and the meter thread's allocation compared
 * before and after.
 */
final class ScrapeBench {

    static final int SEQUENTIAL = 200;
    static final int CONCURRENT = 50;

    /** Target: the median sequential scrape, every family on, in milliseconds. */
    static final double TARGET_MEDIAN_MILLIS = 2;

    /**
     * The endpoint serves at most 4 scrapes at once and queues 4 (see the exporter's
     * ScrapeThreads): the rest are refused by design, counted in this series. More failed
     * scrapes than refused connections would be failures of the endpoint.
     */
    private static final String REFUSED = "mech_exporter_client_errors_total{reason=\"rejected\"}";

    /** A first round of concurrent scrapes fills connection pools and code caches, so the measured round compares like with like. */
    static final int WARM_UP_SECONDS = 5;

    /**
     * The meter thread allocates a few hundred bytes once or twice, in its first seconds or at
     * its first stall after its loop is compiled (measured: never again after that), which is
     * why the bench reports two loaded windows and holds the second to the target.
     */
    static final int HOST_WARM_UP_SECONDS = 10;

    private ScrapeBench() {
    }

    static List<Row> run(final Setup setup) throws Exception {
        final int port = Ports.free();
        final List<String> command = new ArrayList<>(List.of(Jvm.javaCommand(), "-Xmx256m",
            "-javaagent:" + setup.mechJar() + "=report=off,hiccup.control=true,prometheus.port=" + port
                + ",hiccup.log=" + setup.workDir().resolve("scraped.hlog"),
            "-cp", setup.benchJar().toString(), ScrapedHost.class.getName()));
        final long started = System.nanoTime();
        final Process host = new ProcessBuilder(command).directory(setup.workDir().toFile())
            .redirectError(setup.workDir().resolve("scraped.err").toFile()).start();
        try (Writer toHost = new OutputStreamWriter(host.getOutputStream(), StandardCharsets.UTF_8);
             BufferedReader fromHost = new BufferedReader(new InputStreamReader(host.getInputStream(), StandardCharsets.UTF_8))) {
            final Scraper scraper = new Scraper(port);
            scraper.awaitUp(30);
            for (int i = 0; i < SEQUENTIAL; i++) {
                scraper.scrape();
            }
            final List<Double> latencies = new ArrayList<>(SEQUENTIAL);
            for (int i = 0; i < SEQUENTIAL; i++) {
                final long start = System.nanoTime();
                if (!scraper.scrape()) {
                    throw new IllegalStateException("a sequential scrape failed");
                }
                latencies.add((System.nanoTime() - start) / 1e6);
            }
            final String first = mark(toHost, fromHost);
            concurrently(scraper, WARM_UP_SECONDS);
            Thread.sleep(Math.max(0, TimeUnit.SECONDS.toMillis(HOST_WARM_UP_SECONDS) - (System.nanoTime() - started) / 1_000_000));
            final String before = mark(toHost, fromHost);
            final double refusedBefore = scraper.value(REFUSED);
            final long[] counts = concurrently(scraper, setup.scrapeSeconds());
            final double refused = scraper.value(REFUSED) - refusedBefore;
            final String after = mark(toHost, fromHost);
            concurrently(scraper, setup.scrapeSeconds());
            final String again = mark(toHost, fromHost);

            final List<Row> rows = new ArrayList<>();
            final Stats latency = Stats.of(latencies);
            rows.add(Row.of("scrape latency, every family registered", Config.DEFAULTS.label, "ms", latency).atMost(TARGET_MEDIAN_MILLIS));
            rows.add(Row.of("scrape latency p99 of " + SEQUENTIAL, Config.DEFAULTS.label, "ms", percentile(latencies, 99)));
            rows.add(Row.of(CONCURRENT + " concurrent scrapers: scrapes per second", Config.DEFAULTS.label, "1/s",
                single(counts[0] / (double) setup.scrapeSeconds())));
            rows.add(Row.of(CONCURRENT + " concurrent scrapers: failed scrapes", Config.DEFAULTS.label, "count", single(counts[1])));
            rows.add(Row.of(CONCURRENT + " concurrent scrapers: connections refused by the endpoint's bound", Config.DEFAULTS.label,
                "count", single(refused)));
            // The JDK's client retries a GET once on a closed connection: one failed scrape may be two refusals.
            rows.add(Row.of(CONCURRENT + " concurrent scrapers: failed scrapes beyond the refusals", Config.DEFAULTS.label, "count",
                single(Math.max(0, counts[1] - refused))).atMost(0));
            rows.add(Row.of(CONCURRENT + " concurrent scrapers: live heap growth", Config.DEFAULTS.label, "MiB",
                single((Jvm.field(after, "heap_bytes") - Jvm.field(before, "heap_bytes")) / (1024.0 * 1024))).atMost(1));
            rows.add(Row.of("meter thread allocation, first seconds (JIT warm-up)", Config.DEFAULTS.label, "bytes",
                single(Jvm.field(first, "meter_allocated_bytes"))));
            rows.add(Row.of("meter thread allocation while scraped, first window", Config.DEFAULTS.label, "bytes",
                single(Jvm.field(after, "meter_allocated_bytes") - Jvm.field(before, "meter_allocated_bytes"))));
            rows.add(Row.of("meter thread allocation while scraped, second window", Config.DEFAULTS.label, "bytes",
                single(Jvm.field(again, "meter_allocated_bytes") - Jvm.field(after, "meter_allocated_bytes"))).atMost(0));
            return rows;
        } finally {
            host.destroy();
            host.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Scrapes from {@link #CONCURRENT} threads for the given seconds; returns successes and failures. */
    private static long[] concurrently(final Scraper scraper, final int seconds) throws InterruptedException {
        final AtomicLong ok = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        final List<Thread> scrapers = new ArrayList<>(CONCURRENT);
        for (int i = 0; i < CONCURRENT; i++) {
            final Thread thread = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        (scraper.scrape() ? ok : failed).incrementAndGet();
                    }
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "bench-scraper-" + i);
            thread.start();
            scrapers.add(thread);
        }
        for (final Thread thread : scrapers) {
            thread.join();
        }
        return new long[] {ok.get(), failed.get()};
    }

    private static String mark(final Writer toHost, final BufferedReader fromHost) throws Exception {
        toHost.write("mark\n");
        toHost.flush();
        final String line = fromHost.readLine();
        if (line == null) {
            throw new IllegalStateException("the scraped host exited");
        }
        return line;
    }

    private static Stats single(final double value) {
        return new Stats(value, value, value, 1);
    }

    private static Stats percentile(final List<Double> samples, final double percentile) {
        final List<Double> sorted = new ArrayList<>(samples);
        sorted.sort(null);
        final double value = sorted.get((int) Math.ceil(percentile / 100 * sorted.size()) - 1);
        return new Stats(value, value, value, sorted.size());
    }
}
