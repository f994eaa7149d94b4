package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.testing.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus scrapes mech in a JVM running the demo's kernels with the demo's probes, 2 s
 * a variant: the GC-pause kernel's large live set, the false-sharing kernel within the probe's
 * window, the back-pressure kernel and the locks kernel's nine variants last, so the host
 * outlives the wait for the dashboard's panels. Every query of the Grafana dashboard returns data.
 */
class PrometheusScrapeTest {

    /** The demo's probes, the false-sharing window ending while the false-sharing kernel runs. */
    private static final String PROBES = "probes.locks=on,probes.falsesharing=on,probes.falsesharing.delay=0,"
        + "probes.falsesharing.window=12s,probes.queues=on,probes.queues.sample=250ms";
    private static final Pattern EXPR = Pattern.compile("\"expr\": \"((?:[^\"\\\\]|\\\\.)*)\"");
    /** The dashboard's queries that returned data, once every one did or the wait ended. */
    private static List<String> answered;
    /** A text scrape taken once the dashboard's queries had data, so every part's families are in it. */
    private static String fullScrape;
    /** A moment the host was up and scraped: the queries of the GC kernel's figures are evaluated there. */
    private static double upAt;

    /** Schema 3: neighbouring bucket bounds differ by this factor. */
    private static final double BUCKET_WIDTH = Math.pow(2, 1.0 / 8);

    @TempDir
    static Path dir;

    private static Forked host;
    /**
     * A second host whose bounded queue lives long enough for a wait: mech estimates it over 10 s
     * of a queue's life, and the demo's queues live 2 s each, so the demo's wait showed only when
     * a finished variant's queue outlived it uncollected (ci60: it did not). It runs without the
     * recorder, so the hiccup series stay the demo host's alone.
     */
    private static Forked queueHost;
    private static PrometheusServer prometheus;
    private static int mechPort;

    @BeforeAll
    static void start() throws Exception {
        mechPort = PrometheusServer.freePort();
        host = Forked.start(dir, Forked.javaWithMech(Path.of(System.getProperty("java.home")),
            "hiccup.causes=on,prometheus.port=" + mechPort + ",hiccup.interval=1s,report=off,hiccup.log=" + dir.resolve("gc.hlog")
                + "," + PROBES,
            "-Xmx512m", "-jar", Paths.examplesJar().toString(), "gc-pause:large-live-set,false-sharing,back-pressure,locks",
            "--seconds", "2"));
        final int queuePort = PrometheusServer.freePort();
        queueHost = Forked.start(dir, Forked.javaWithMech(Path.of(System.getProperty("java.home")),
            "hiccup=off,report=off,probes.locks=off,probes.queues=on,probes.queues.sample=250ms,prometheus.port=" + queuePort,
            "-jar", Paths.examplesJar().toString(), "back-pressure:overfed", "--seconds", "16"));
        prometheus = PrometheusServer.start(dir, mechPort, queuePort);
        Await.until("6 scrapes of mech by Prometheus", Duration.ofSeconds(30), Duration.ofMillis(500), () -> PrometheusServer.values(prometheus.query(
            "count_over_time(mech_hiccup_hdr_seconds_count{jvm=\"host\"}[1m])", now())).stream().anyMatch(n -> n >= 6));
        upAt = now();
    }

    @AfterAll
    static void stop() throws Exception {
        if (prometheus != null) {
            prometheus.close();
        }
        for (final Forked forked : new Forked[] {host, queueHost}) {
            if (forked != null) {
                ProcessHandle.of(forked.pid()).ifPresent(ProcessHandle::destroy);
                forked.await(30);
            }
        }
    }

    private static double now() {
        return System.currentTimeMillis() / 1000.0;
    }

    private static double single(final String promql, final double time) throws Exception {
        final List<Double> values = PrometheusServer.values(prometheus.query(promql, time));
        assertEquals(1, values.size(), promql + " -> " + values);
        return values.get(0);
    }

    @Test
    void nativeHistogramQuantileAgreesWithHdrHistogram() throws Exception {
        final double time = upAt;
        for (final String q : List.of("0.5", "0.99")) {
            final double nativeQuantile = single("histogram_quantile(" + q + ", mech_hiccup_seconds{jvm=\"host\"})", time);
            final double hdr = single("mech_hiccup_hdr_seconds{jvm=\"host\",quantile=\"" + q + "\"}", time);
            final double ratio = nativeQuantile / hdr;
            assertTrue(ratio <= BUCKET_WIDTH * 1.02 && ratio >= 1 / (BUCKET_WIDTH * 1.02),
                "q" + q + ": native " + nativeQuantile + " s vs HdrHistogram " + hdr + " s");
        }
        assertTrue(single("mech_hiccup_hdr_seconds{jvm=\"host\",quantile=\"1.0\"}", time) > 0.005,
            "the GC kernel's pauses show as hiccups");
    }

    @Test
    void jvmMetricsArePresent() throws Exception {
        assertFalse(PrometheusServer.values(prometheus.query("jvm_memory_used_bytes", upAt)).isEmpty());
        assertFalse(PrometheusServer.values(prometheus.query("jvm_threads_current", upAt)).isEmpty());
    }

    @Test
    void promtoolFindsNothingToLint() throws Exception {
        dashboardQueriesAnswered();
        final String text = fullScrape;
        final Process promtool = new ProcessBuilder(PrometheusServer.binary("promtool"), "check", "metrics")
            .redirectErrorStream(true).start();
        promtool.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        promtool.getOutputStream().close();
        final String output = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, promtool.waitFor(), output);
        assertEquals("", output.trim());
        // mech's own label values are snake-case words; the JVM families keep the JVM's pool names
        final Matcher spaced = Pattern.compile("(?m)^mech_[^{ ]*\\{.*=\"[^\"]* [^\"]*\".*$").matcher(text);
        assertFalse(spaced.find(), () -> "a label value with a space: " + spaced.group());
    }

    @Test
    void everyDashboardQueryReturnsData() throws Exception {
        assertEquals(dashboardQueries(), dashboardQueriesAnswered(), "the dashboard's queries with data, of all its queries");
    }

    /**
     * Waits, 120 s at most, until each of the dashboard's queries has returned data at some
     * moment of the run (the kernels run one after another, and each panel's data comes with its
     * kernel); the instance variable stands for every instance.
     *
     * @return the queries that did, in the dashboard's order
     */
    private static synchronized List<String> dashboardQueriesAnswered() throws Exception {
        if (answered != null) {
            return answered;
        }
        final List<String> queries = dashboardQueries();
        final Set<String> found = new java.util.HashSet<>();
        final long deadline = System.nanoTime() + 120_000_000_000L;
        while (found.size() < queries.size() && System.nanoTime() < deadline) {
            for (final String query : queries) {
                if (!found.contains(query) && !PrometheusServer.values(prometheus.query(
                    "max_over_time((" + query.replace("$instance", ".*") + ")[5m:1s])", now())).isEmpty()) {
                    found.add(query);
                }
            }
            if (found.size() < queries.size()) {
                Thread.sleep(1000);
            }
        }
        answered = queries.stream().filter(found::contains).toList();
        fullScrape = scrapeText();
        return answered;
    }

    private static List<String> dashboardQueries() throws Exception {
        final Matcher expr = EXPR.matcher(Files.readString(Paths.repoFile("examples/grafana/mech-dashboard.json")));
        final List<String> queries = new ArrayList<>();
        while (expr.find()) {
            queries.add(expr.group(1).replace("\\\"", "\""));
        }
        assertTrue(queries.size() >= 14, "the dashboard's queries: " + queries);
        return queries;
    }

    @Test
    void dashboardUsesOnlyNamesMechExports() throws Exception {
        final String dashboard = Files.readString(Paths.repoFile("examples/grafana/mech-dashboard.json"));
        // once every panel had data, each family the dashboard reads has been served
        dashboardQueriesAnswered();
        final Set<String> exported = exportedNames(prometheus.names());
        final Matcher names = Pattern.compile("\\b(mech_[a-z0-9_]+)").matcher(dashboard);
        final Set<String> used = new TreeSet<>();
        while (names.find()) {
            used.add(names.group(1));
        }
        assertFalse(used.isEmpty());
        final List<String> unknown = new ArrayList<>();
        for (final String name : used) {
            if (!exported.contains(name)) {
                unknown.add(name);
            }
        }
        assertEquals(List.of(), unknown, "names the dashboard uses but mech does not export; exported: " + exported);
        assertFalse(dashboard.contains("jvm_"), "the dashboard is built only on mech's own names");
        // on JDK 21 and later jvm="host" also matches the virtual-thread meter, whose p50 was 20 ms
        final Matcher host = Pattern.compile("jvm=\\\\\"host\\\\\"[^}]*").matcher(dashboard);
        int selectors = 0;
        while (host.find()) {
            selectors++;
            assertTrue(host.group().contains("thread=\\\"\\\""), "the platform meter selected explicitly: " + host.group());
        }
        assertTrue(selectors > 0, "the dashboard selects the host's meter");
    }

    /** mech's series names in Prometheus' list of names. */
    private static Set<String> exportedNames(final String answer) {
        final Set<String> names = new TreeSet<>();
        final Matcher name = Pattern.compile("\"(mech_[a-z0-9_]+)\"").matcher(answer);
        while (name.find()) {
            names.add(name.group(1));
        }
        return names;
    }

    private static String scrapeText() throws Exception {
        final HttpResponse<String> response = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mechPort + "/metrics"))
                .header("Accept", "text/plain; version=0.0.4").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        return response.body();
    }
}
