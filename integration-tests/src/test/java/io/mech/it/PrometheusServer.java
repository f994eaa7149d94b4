package io.mech.it;

import io.mech.testing.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real Prometheus server from Debian's package, started on 127.0.0.1 for one test class
 * with native histograms on, a 1 s scrape interval and, when given rule files, a 1 s evaluation
 * interval. Installs the package when it is missing.
 */
public final class PrometheusServer implements AutoCloseable {

    private static final Pattern SCALAR = Pattern.compile("\"value\":\\[[0-9.]+,\"([^\"]+)\"\\]");
    private static final Pattern BY_INSTANCE = Pattern.compile(
        "\"instance\":\"([^\"]+)\"[^}]*\\},\"value\":\\[[0-9.]+,\"([^\"]+)\"\\]");

    private final Process process;
    private final int port;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private PrometheusServer(final Process process, final int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts Prometheus scraping the given loopback targets every second. */
    public static PrometheusServer start(final Path dir, final int... targetPorts) throws Exception {
        return start(dir, List.of(), targetPorts);
    }

    /**
     * Starts Prometheus scraping the given loopback targets every second and evaluating the given
     * rule files every second.
     */
    public static PrometheusServer start(final Path dir, final List<Path> ruleFiles, final int... targetPorts) throws Exception {
        final String binary = binary("prometheus");
        final StringBuilder targets = new StringBuilder();
        for (final int target : targetPorts) {
            targets.append(targets.length() == 0 ? "" : ", ").append("'127.0.0.1:").append(target).append('\'');
        }
        final StringBuilder rules = new StringBuilder();
        for (final Path file : ruleFiles) {
            rules.append(rules.length() == 0 ? "rule_files:\n" : "").append("  - '").append(file.toAbsolutePath()).append("'\n");
        }
        final Path config = Files.writeString(dir.resolve("prometheus.yml"), "global:\n  scrape_interval: 1s\n"
            + "  evaluation_interval: 1s\n" + rules + "scrape_configs:\n  - job_name: mech\n    static_configs:\n"
            + "      - targets: [" + targets + "]\n");
        final int port = freePort();
        final Process process = new ProcessBuilder(binary, "--config.file=" + config,
            "--storage.tsdb.path=" + Files.createDirectories(dir.resolve("tsdb")),
            "--web.listen-address=127.0.0.1:" + port, "--enable-feature=native-histograms")
            .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        final PrometheusServer server = new PrometheusServer(process, port);
        server.awaitReady(dir.resolve("prometheus.log"));
        return server;
    }

    /** The path of a Prometheus tool, installing Debian's package first when it is missing. */
    public static String binary(final String name) throws Exception {
        for (final String dir : List.of("/usr/bin", "/usr/local/bin")) {
            if (Files.isExecutable(Path.of(dir, name))) {
                return Path.of(dir, name).toString();
            }
        }
        final Process install = new ProcessBuilder("apt-get", "install", "-y", "--no-install-recommends", "prometheus")
            .redirectErrorStream(true).start();
        final String output = new String(install.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!install.waitFor(300, TimeUnit.SECONDS) || install.exitValue() != 0 || !Files.isExecutable(Path.of("/usr/bin", name))) {
            throw new IllegalStateException("Prometheus is not installed and 'apt-get install prometheus' failed "
                + "(run it as root, or run .ci/run):\n" + output);
        }
        return "/usr/bin/" + name;
    }

    /** The lowest port the tests take: above the well-known ones and the usual services'. */
    private static final int LOWEST_PORT = 20_000;
    /** Every port {@link #freePort} handed out in this JVM: a test that asks for several gets different ones. */
    private static final Set<Integer> GIVEN = new HashSet<>();

    /**
     * A TCP port free on loopback right now, below the kernel's ephemeral range, and never one
     * handed out before in this JVM. A port is free only while nobody binds it: binding to 0 and
     * closing, as this did before, can give the same port to two hosts of one test, and a port
     * from the ephemeral range can be a connection's source port before its host binds it.
     * Either left one of FleetAgreementTest's ten hosts without /metrics (ci42, ci44: nine
     * instances scraped, every host's port among them).
     */
    public static synchronized int freePort() throws IOException {
        final int below = ephemeralLow();
        final ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 1000; attempt++) {
            final int port = random.nextInt(LOWEST_PORT, below);
            if (GIVEN.contains(port)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                GIVEN.add(port);
                return socket.getLocalPort();
            } catch (final IOException taken) {
                // another process listens there: try another
            }
        }
        throw new IOException("no free loopback port in " + LOWEST_PORT + "-" + below + " after 1000 tries");
    }

    /**
     * The first port of the kernel's ephemeral range; Linux's default where it cannot be read.
     * Read as a line: a proc file's size is 0, and reading it whole by its size gave "3".
     */
    private static int ephemeralLow() {
        try {
            final String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim();
            return Math.max(LOWEST_PORT + 1_000, Integer.parseInt(range.split("\\s+")[0]));
        } catch (final IOException | RuntimeException e) {
            return 32_768;
        }
    }

    private void awaitReady(final Path log) throws Exception {
        try {
            Await.until("Prometheus ready", Duration.ofSeconds(30), Duration.ofMillis(200), () -> {
                if (!process.isAlive()) {
                    throw new AssertionError("Prometheus exited");
                }
                return get("/-/ready").statusCode() == 200;
            });
        } catch (final AssertionError notReady) {
            throw new IllegalStateException(notReady.getMessage() + ":\n" + Files.readString(log), notReady);
        }
    }

    private HttpResponse<String> get(final String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The raw JSON answer of an instant query, evaluated at the given Unix time. */
    public String query(final String promql, final double time) throws IOException, InterruptedException {
        final HttpResponse<String> response = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)
            + "&time=" + time);
        if (response.statusCode() != 200) {
            throw new IllegalStateException(promql + ": HTTP " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }

    /** The raw JSON answer of /api/v1/label/__name__/values: every series name ingested so far. */
    public String names() throws IOException, InterruptedException {
        final HttpResponse<String> response = get("/api/v1/label/__name__/values");
        if (response.statusCode() != 200) {
            throw new IllegalStateException("/api/v1/label/__name__/values: HTTP " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }

    /** The raw JSON answer of /api/v1/alerts: the alerts pending or firing now. */
    public String alerts() throws IOException, InterruptedException {
        final HttpResponse<String> response = get("/api/v1/alerts");
        if (response.statusCode() != 200) {
            throw new IllegalStateException("/api/v1/alerts: HTTP " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }

    /** The raw JSON answer of /api/v1/rules: the rule groups loaded, with each rule's health. */
    public String rules() throws IOException, InterruptedException {
        final HttpResponse<String> response = get("/api/v1/rules");
        if (response.statusCode() != 200) {
            throw new IllegalStateException("/api/v1/rules: HTTP " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }

    /** The sample values of an instant query's answer. */
    public static List<Double> values(final String json) {
        final List<Double> values = new ArrayList<>();
        final Matcher m = SCALAR.matcher(json);
        while (m.find()) {
            values.add(Double.parseDouble(m.group(1)));
        }
        return values;
    }

    /** The sample values of an instant query's answer by their {@code instance} label (host:port). */
    public static Map<String, Double> valuesByInstance(final String json) {
        final Map<String, Double> values = new TreeMap<>();
        final Matcher m = BY_INSTANCE.matcher(json);
        while (m.find()) {
            values.put(m.group(1), Double.parseDouble(m.group(2)));
        }
        return values;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (final InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
