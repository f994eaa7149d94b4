package io.mech.bench;

import java.io.BufferedReader;
import java.io.IOException;
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
 * concurrent scrapers, with the host's resident set, live heap and the meter thread's allocation
 * compared before and after; a scrape of a host with 5,000 parked threads against one with 50;
 * and scrapes 20 to 120 of a fresh host, while its scrape path is still cold, less
 * {@code /-/healthy}'s time on the same host.
 *
 * <p>Sequential scrapes are spaced {@link #SPACING_MILLIS} apart, past the time the endpoint
 * answers a scrape again (a Prometheus scrapes a target at most once a second), so that each
 * one collects.
 */
final class ScrapeBench {

    static final int SEQUENTIAL = 100;
    static final int CONCURRENT = 50;
    /** Longer than the endpoint's 200 ms in which it answers the same way of asking again. */
    static final long SPACING_MILLIS = 210;
    /** Target: the host's resident set after the concurrent scrapers, above the one before, in MiB. */
    static final double TARGET_RSS_GROWTH_MIB = 16;
    /** The parked threads of the many-threads host, and of the few-threads host it is compared with. */
    static final int MANY_THREADS = 5_000;
    static final int FEW_THREADS = 50;
    /** Target: a scrape of the many-threads host against one of the few-threads host. */
    static final double TARGET_THREADS_RATIO = 2;
    /** The fresh host's scrapes: the first ones are left out, the rest measured. */
    static final int FRESH_FIRST = 20;
    static final int FRESH_LAST = 120;
    /** Target: the median of those scrapes less /-/healthy's time, in milliseconds. */
    static final double TARGET_FRESH_MILLIS = 2;

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
        final List<Row> rows = new ArrayList<>(crowd(setup));
        rows.addAll(crowdOfHealthChecks(setup));
        rows.addAll(threads(setup));
        rows.addAll(fresh(setup, false));
        rows.addAll(fresh(setup, true));
        return rows;
    }

    /** The scraped host with the given parked threads and a control JVM, so every family is served; the caller destroys it. */
    private static Process host(final Setup setup, final int port, final int parked, final String name) throws IOException {
        return host(setup, port, parked, name, true);
    }

    private static Process host(final Setup setup, final int port, final int parked, final String name, final boolean control)
        throws IOException {
        final List<String> command = new ArrayList<>(List.of(Jvm.javaCommand(),
            "-javaagent:" + setup.mechJar() + "=report=off,hiccup.control=" + control + ",prometheus.port=" + port
                + ",hiccup.log=" + setup.workDir().resolve(name + ".hlog"),
            "-cp", setup.benchJar().toString(), ScrapedHost.class.getName(), Integer.toString(parked)));
        return new ProcessBuilder(command).directory(setup.workDir().toFile())
            .redirectError(setup.workDir().resolve(name + ".err").toFile()).start();
    }

    private static void stop(final Process host) throws InterruptedException {
        host.destroy();
        host.waitFor(10, TimeUnit.SECONDS);
    }

    /** One scrape's milliseconds, after the spacing. */
    private static double timed(final Scraper scraper) throws InterruptedException {
        Thread.sleep(SPACING_MILLIS);
        final long start = System.nanoTime();
        if (!scraper.scrape()) {
            throw new IllegalStateException("a sequential scrape failed");
        }
        return (System.nanoTime() - start) / 1e6;
    }

    private static List<Row> crowd(final Setup setup) throws Exception {
        final int port = Ports.free();
        final long started = System.nanoTime();
        try (MarkedHost host = new MarkedHost(setup, port, "scraped")) {
            final Scraper scraper = new Scraper(port);
            scraper.awaitUp(30);
            for (int i = 0; i < SEQUENTIAL; i++) {
                timed(scraper);
            }
            final List<Double> latencies = new ArrayList<>(SEQUENTIAL);
            for (int i = 0; i < SEQUENTIAL; i++) {
                latencies.add(timed(scraper));
            }
            final String first = host.mark();
            concurrently(scraper, WARM_UP_SECONDS);
            Thread.sleep(Math.max(0, TimeUnit.SECONDS.toMillis(HOST_WARM_UP_SECONDS) - (System.nanoTime() - started) / 1_000_000));
            final String before = host.mark();
            final double refusedBefore = scraper.value(REFUSED);
            final long[] counts = concurrently(scraper, setup.scrapeSeconds());
            final double refused = scraper.value(REFUSED) - refusedBefore;
            final String after = host.mark();
            concurrently(scraper, setup.scrapeSeconds());
            final String again = host.mark();

            final List<Row> rows = new ArrayList<>();
            final Stats latency = Stats.of(latencies);
            rows.add(Row.of("scrape latency, every family registered, " + SPACING_MILLIS + " ms apart", Config.DEFAULTS.label, "ms", latency));
            rows.add(Row.of("scrape latency p99 of " + SEQUENTIAL, Config.DEFAULTS.label, "ms", percentile(latencies, 99)));
            rows.add(Row.of(CONCURRENT + " concurrent scrapers: scrapes per second", Config.DEFAULTS.label, "1/s",
                single(counts[0] / (double) setup.scrapeSeconds())));
            rows.add(Row.of(CONCURRENT + " concurrent scrapers: failed scrapes", Config.DEFAULTS.label, "count", single(counts[1])));
            rows.add(Row.of(CONCURRENT + " concurrent scrapers: connections refused by the endpoint's bound", Config.DEFAULTS.label,
                "count", single(refused)));
            // The JDK's client retries a GET once on a closed connection: one failed scrape may be two refusals.
            rows.add(Row.of(CONCURRENT + " concurrent scrapers: failed scrapes beyond the refusals", Config.DEFAULTS.label, "count",
                single(Math.max(0, counts[1] - refused))).atMost(0));
            // from before any crowd to after the measured one, warm-up crowd included
            rows.add(Row.of(CONCURRENT + " concurrent scrapers: host RSS before", Config.DEFAULTS.label, "MiB",
                single(Jvm.field(first, "rss_bytes") / (1024.0 * 1024))));
            rows.add(Row.of(CONCURRENT + " concurrent scrapers: host RSS growth", Config.DEFAULTS.label, "MiB",
                single((Jvm.field(after, "rss_bytes") - Jvm.field(first, "rss_bytes")) / (1024.0 * 1024))).atMost(TARGET_RSS_GROWTH_MIB));
            rows.add(Row.of(CONCURRENT + " concurrent scrapers: live heap growth", Config.DEFAULTS.label, "MiB",
                single((Jvm.field(after, "heap_bytes") - Jvm.field(before, "heap_bytes")) / (1024.0 * 1024))).atMost(1));
            rows.add(Row.of("meter thread allocation, first seconds (JIT warm-up)", Config.DEFAULTS.label, "bytes",
                single(Jvm.field(first, "meter_allocated_bytes"))));
            rows.add(Row.of("meter thread allocation while scraped, first window", Config.DEFAULTS.label, "bytes",
                single(Jvm.field(after, "meter_allocated_bytes") - Jvm.field(before, "meter_allocated_bytes"))));
            rows.add(Row.of("meter thread allocation while scraped, second window", Config.DEFAULTS.label, "bytes",
                single(Jvm.field(again, "meter_allocated_bytes") - Jvm.field(after, "meter_allocated_bytes"))).atMost(0));
            return rows;
        }
    }

    /**
     * The same scrapes of a host with {@link #MANY_THREADS} parked threads and one with
     * {@link #FEW_THREADS}, side by side, A B A B: medians of each and of their ratio per pair.
     */
    private static List<Row> threads(final Setup setup) throws Exception {
        final int manyPort = Ports.free();
        final Process many = host(setup, manyPort, MANY_THREADS, "scraped-many");
        final int fewPort = Ports.free();
        final Process few = host(setup, fewPort, FEW_THREADS, "scraped-few");
        try {
            final Scraper manyScraper = new Scraper(manyPort, false);
            final Scraper fewScraper = new Scraper(fewPort, false);
            manyScraper.awaitUp(60);
            fewScraper.awaitUp(60);
            for (int i = 0; i < SEQUENTIAL; i++) {
                timed(manyScraper);
                timed(fewScraper);
            }
            final List<Double> manyMillis = new ArrayList<>();
            final List<Double> fewMillis = new ArrayList<>();
            for (int i = 0; i < SEQUENTIAL; i++) {
                manyMillis.add(timed(manyScraper));
                fewMillis.add(timed(fewScraper));
            }
            final String figure = "scrape with %,d parked threads".formatted(MANY_THREADS);
            return List.of(
                Row.of(figure, Config.DEFAULTS.label, "ms", Stats.of(manyMillis)),
                Row.of("scrape with %,d parked threads".formatted(FEW_THREADS), Config.DEFAULTS.label, "ms", Stats.of(fewMillis)),
                Row.of(figure + ", against %,d".formatted(FEW_THREADS), Config.DEFAULTS.label, "x",
                    Stats.of(Alternation.paired(manyMillis, fewMillis, (a, b) -> a / b))).atMost(TARGET_THREADS_RATIO));
        } finally {
            stop(many);
            stop(few);
        }
    }

    /**
     * Scrapes {@link #FRESH_FIRST} to {@link #FRESH_LAST} of a fresh host, in the text format a
     * default Prometheus asks for, each less a {@code /-/healthy} request spaced the same way
     * after it on the same host: what the scrape itself costs while its path is still cold. The
     * defaults are judged; with a control JVM, whose log each scrape follows, beside them.
     */
    private static List<Row> fresh(final Setup setup, final boolean control) throws Exception {
        final int port = Ports.free();
        final Process host = host(setup, port, 0, control ? "scraped-fresh-control" : "scraped-fresh", control);
        final String label = control ? Config.DEFAULTS.label + " + control JVM" : Config.DEFAULTS.label;
        try {
            final Scraper scraper = new Scraper(port, false);
            scraper.awaitUp(30);
            final List<Double> scrapes = new ArrayList<>();
            final List<Double> healthy = new ArrayList<>();
            for (int i = 1; i <= FRESH_LAST; i++) {
                final double scrape = timed(scraper);
                // spaced as the scrape is: a request on a connection idle for a while waits for the server to wake up
                Thread.sleep(SPACING_MILLIS);
                final long start = System.nanoTime();
                if (!scraper.healthy()) {
                    throw new IllegalStateException("/-/healthy failed");
                }
                if (i >= FRESH_FIRST) {
                    scrapes.add(scrape);
                    healthy.add((System.nanoTime() - start) / 1e6);
                }
            }
            final Row less = Row.of("fresh host, scrapes %d-%d less /-/healthy".formatted(FRESH_FIRST, FRESH_LAST), label, "ms",
                Stats.of(Alternation.paired(scrapes, healthy, (a, b) -> a - b)));
            return List.of(
                Row.of("fresh host, scrapes %d-%d".formatted(FRESH_FIRST, FRESH_LAST), label, "ms", Stats.of(scrapes)),
                Row.of("fresh host, /-/healthy, spaced the same way", label, "ms", Stats.of(healthy)),
                control ? less : less.atMost(TARGET_FRESH_MILLIS));
        } finally {
            stop(host);
        }
    }

    /** One request of a crowd's client; true when it was answered. */
    private interface Request {
        boolean send() throws InterruptedException;
    }

    /**
     * The crowd's RSS growth with the same clients asking for {@code /-/healthy}, which the same
     * HTTP server answers without collecting or writing anything: the part of the growth that is
     * the server's, set beside the crowd of scrapers'.
     */
    private static List<Row> crowdOfHealthChecks(final Setup setup) throws Exception {
        final int port = Ports.free();
        try (MarkedHost host = new MarkedHost(setup, port, "health-checked")) {
            final Scraper scraper = new Scraper(port);
            scraper.awaitUp(30);
            final String first = host.mark();
            concurrently(scraper::healthy, WARM_UP_SECONDS);
            concurrently(scraper::healthy, setup.scrapeSeconds());
            final String after = host.mark();
            return List.of(Row.of(CONCURRENT + " concurrent clients of /-/healthy: host RSS growth", Config.DEFAULTS.label, "MiB",
                single((Jvm.field(after, "rss_bytes") - Jvm.field(first, "rss_bytes")) / (1024.0 * 1024))));
        }
    }

    /** Scrapes from {@link #CONCURRENT} threads for the given seconds; returns successes and failures. */
    private static long[] concurrently(final Scraper scraper, final int seconds) throws InterruptedException {
        return concurrently(scraper::scrape, seconds);
    }

    private static long[] concurrently(final Request request, final int seconds) throws InterruptedException {
        final AtomicLong ok = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        final List<Thread> scrapers = new ArrayList<>(CONCURRENT);
        for (int i = 0; i < CONCURRENT; i++) {
            final Thread thread = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        (request.send() ? ok : failed).incrementAndGet();
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

    /**
     * A scraped host with a control JVM and the pipe on which it prints its own figures (RSS,
     * live heap, the meter thread's allocation) each time it is asked; closing it stops the host.
     * Used by the bench's one thread.
     */
    private static final class MarkedHost implements AutoCloseable {
        private final Process process;
        private final Writer toHost;
        private final BufferedReader fromHost;

        MarkedHost(final Setup setup, final int port, final String name) throws IOException {
            process = host(setup, port, 0, name);
            toHost = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            fromHost = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        /** @return the host's figures, one line */
        String mark() throws IOException {
            toHost.write("mark\n");
            toHost.flush();
            final String line = fromHost.readLine();
            if (line == null) {
                throw new IllegalStateException("the scraped host exited");
            }
            return line;
        }

        @Override
        public void close() throws IOException {
            try (toHost; fromHost) {
                stop(process);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
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
