package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mech.it.hosts.SleepingHost;
import io.mech.testing.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/prometheus/mech-rules.yml: promtool checks it and runs its unit tests, and a real
 * Prometheus evaluating it fires its p99 alert when a JVM it scrapes is stopped, for native and
 * for classic buckets.
 */
@QuietHosts
class PrometheusRulesTest {

    private static final Pattern RULE = Pattern.compile("^\\s*- (record|alert): (\\S+)\\s*$", Pattern.MULTILINE);
    /** One alert of /api/v1/alerts, its fields in the order Prometheus writes them. */
    private static final Pattern ALERT = Pattern.compile("\\{\"labels\":\\{([^}]*)},\"annotations\":\\{[^}]*},"
        + "\"state\":\"(\\w+)\",\"activeAt\":\"([^\"]+)\",\"value\":\"([^\"]+)\"");
    private static final Pattern LABEL = Pattern.compile("\"(\\w+)\":\"((?:[^\"\\\\]|\\\\.)*)\"");

    @TempDir
    Path dir;

    /** An alert pending or firing in Prometheus. */
    private record Alert(Map<String, String> labels, String state, Instant activeAt, double value) {
    }

    private static Path rulesFile() {
        return Paths.repoFile("examples/prometheus/mech-rules.yml");
    }

    /** The rules' names by kind ("record" or "alert"), read from the file. */
    private static List<String> ruleNames(final String rules, final String kind) {
        final List<String> names = new ArrayList<>();
        final Matcher m = RULE.matcher(rules);
        while (m.find()) {
            if (m.group(1).equals(kind)) {
                names.add(m.group(2));
            }
        }
        return names;
    }

    /** A Prometheus tool, installed when missing as the other Prometheus tests do; the test is skipped when it cannot be. */
    private static String tool(final String name) throws Exception {
        try {
            return PrometheusServer.binary(name);
        } catch (final IllegalStateException notInstalled) {
            assumeTrue(false, name + " is absent: " + notInstalled.getMessage());
            throw notInstalled;
        }
    }

    /** Runs a command in a directory; returns its exit code and merged output. */
    private static Map.Entry<Integer, String> run(final Path workDir, final String... command) throws Exception {
        final Process process = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not end within 60 s: " + output);
        }
        return Map.entry(process.exitValue(), output);
    }

    @Test
    void promtoolChecksTheRules() throws Exception {
        final String promtool = tool("promtool");
        final String rules = Files.readString(rulesFile());
        final int count = ruleNames(rules, "record").size() + ruleNames(rules, "alert").size();
        assertTrue(count > 0, "no rules read from " + rulesFile());
        final Map.Entry<Integer, String> check = run(rulesFile().getParent(), promtool, "check", "rules", rulesFile().toString());
        assertEquals(0, check.getKey(), check.getValue());
        assertTrue(check.getValue().contains("SUCCESS: " + count + " rules found"), check.getValue());
    }

    @Test
    void promtoolUnitTestsPassAndCoverEveryRule() throws Exception {
        final String promtool = tool("promtool");
        final Path tests = rulesFile().resolveSibling("mech-rules.test.yml");
        final Map.Entry<Integer, String> result = run(tests.getParent(), promtool, "test", "rules", tests.toString());
        assertEquals(0, result.getKey(), result.getValue());
        assertTrue(result.getValue().contains("SUCCESS"), result.getValue());
        assertFalse(result.getValue().contains("FAILED"), result.getValue());
        final String rules = Files.readString(rulesFile());
        final String testText = Files.readString(tests);
        for (final String record : ruleNames(rules, "record")) {
            assertTrue(testText.contains("expr: " + record) || testText.contains("expr: round(" + record),
                "no promql_expr_test of " + record);
        }
        for (final String alert : ruleNames(rules, "alert")) {
            final String[] cases = testText.split("alertname: " + Pattern.quote(alert) + "\n", -1);
            int firing = 0;
            int quiet = 0;
            for (int i = 1; i < cases.length; i++) {
                if (cases[i].stripLeading().startsWith("exp_alerts:")) {
                    firing++;
                } else {
                    quiet++;
                }
            }
            assertTrue(firing >= 1 && quiet >= 1, alert + ": " + firing + " firing and " + quiet + " quiet cases");
        }
    }

    /**
     * A test copy of the rules with 10 s windows instead of 5 and 10 minutes and {@code for: 2s}
     * instead of 5 minutes, so that one stop of 310 ms fires the p99 alert, at its shipped
     * threshold, within seconds: the stop fills about 300 of the 10,000 samples of 10 s (coordinated-
     * omission correction), so the p99 lands in its deepest 100 ms, far above 50 ms.
     *
     * <p>The stall-share alert is left out of this test: a stop of 310 ms is 3% of a 10 s window,
     * and on this shared 2-core machine (load 12 while this was written) a JVM's background
     * stalls of 2 ms and up reached 5% of wall time, so no threshold told the stop from the load.
     * Its recorded series is checked here, and promtool's tests check when it fires.
     */
    private Path testCopy() throws Exception {
        String rules = Files.readString(rulesFile());
        rules = replace(rules, "[5m]", "[10s]");
        rules = replace(rules, "[10m]", "[10s]");
        rules = replace(rules, "for: 5m", "for: 2s");
        assertTrue(rules.contains("instance_jvm:mech_hiccup_seconds:p99_5m > 0.05"), "the p99 alert keeps the shipped threshold");
        return Files.writeString(dir.resolve("mech-rules-fast.yml"), rules);
    }

    private static String replace(final String text, final String from, final String to) {
        assertTrue(text.contains(from), "the rules no longer hold '" + from + "'; update the test copy");
        return text.replace(from, to);
    }

    /** A JVM under mech serving its hiccups with native or classic buckets. */
    private record Host(String histogram, int port, Forked process) {
        String instance() {
            return "127.0.0.1:" + port;
        }
    }

    private Host startHost(final String histogram) throws Exception {
        final int port = PrometheusServer.freePort();
        return new Host(histogram, port, Forked.start(dir, Forked.javaWithMech(Path.of(System.getProperty("java.home")),
            "report=off,hiccup.log=,hiccup.interval=1s,prometheus.histogram=" + histogram + ",prometheus.port=" + port,
            "-cp", Paths.testClasses(), SleepingHost.class.getName(), "120000")));
    }

    @Test
    void realPrometheusFiresTheP99AlertOnAStop() throws Exception {
        tool("prometheus");
        final Path rules = testCopy();
        final List<Host> hosts = new ArrayList<>();
        final Set<String> names = Set.of("MechHiccupP99High");
        try {
            hosts.add(startHost("native"));
            hosts.add(startHost("classic"));
            try (PrometheusServer prometheus = PrometheusServer.start(dir, List.of(rules),
                hosts.stream().mapToInt(Host::port).toArray())) {
                awaitQuiet(prometheus, hosts, names);
                // Each side of the p99 rule answered: the native host sent no classic buckets, the classic host did.
                final double now = System.currentTimeMillis() / 1000.0;
                assertEquals(List.of(), PrometheusServer.values(prometheus.query(
                    "count(mech_hiccup_seconds_bucket{instance=\"" + hosts.get(0).instance() + "\"})", now)), "native host");
                assertEquals(List.of(18.0), PrometheusServer.values(prometheus.query(
                    "count(mech_hiccup_seconds_bucket{instance=\"" + hosts.get(1).instance() + "\",jvm=\"host\"})", now)),
                    "classic host: its 17 bounds and +Inf");
                final String health = prometheus.rules();
                final String loaded = Files.readString(rules);
                final int count = ruleNames(loaded, "record").size() + ruleNames(loaded, "alert").size();
                assertEquals(count, countOf(health, "\"health\":\"ok\""), health);

                // Both stops back to back, right after the quiet spell.
                final Map<Host, Instant> stopped = new LinkedHashMap<>();
                final Map<Host, Long> stoppedMillis = new LinkedHashMap<>();
                for (final Host host : hosts) {
                    stopped.put(host, Instant.now());
                    stoppedMillis.put(host, host.process().stopFor(Forked.STALL_MILLIS));
                }
                for (final Host host : hosts) {
                    final List<Alert> firing = awaitFiring(prometheus, host, names, stoppedMillis.get(host));
                    for (final Alert alert : firing) {
                        final String what = host.histogram() + " host, stopped " + stoppedMillis.get(host) + " ms: " + alert;
                        assertTrue(alert.activeAt().isAfter(stopped.get(host)), what + " became active before the stop at "
                            + stopped.get(host));
                        assertEquals("warning", alert.labels().get("severity"), what);
                        // The p99 lies within the stop: above the threshold, and no further above the stop than the
                        // bucket holding it reaches (native: 9% wider; classic: the next bound up).
                        final double stop = stoppedMillis.get(host) / 1000.0;
                        final double bound = host.histogram().equals("native") ? stop * 1.1 + 0.01 : classicBoundAbove(stop);
                        assertTrue(alert.value() > 0.05 && alert.value() <= bound, what + ", bound " + bound);
                    }
                }
            }
        } finally {
            for (final Host host : hosts) {
                host.process().kill();
                host.process().await(30);
            }
        }
    }

    /** mech's classic bucket bounds from 250 ms up (ClassicBuckets): the smallest at or above the given seconds. */
    private static double classicBoundAbove(final double seconds) {
        for (final double bound : new double[] {0.25, 0.5, 1, 2.5, 5, 10}) {
            if (bound >= seconds) {
                return bound;
            }
        }
        return Double.POSITIVE_INFINITY;
    }

    /**
     * Waits until both recorded hiccup series answer for every host JVM and none of the alerts has
     * been active for 3 s on end: past the JVMs' start-up, the window holds no stall of its own.
     */
    private void awaitQuiet(final PrometheusServer prometheus, final List<Host> hosts, final Set<String> names) throws Exception {
        final AtomicLong quietSince = new AtomicLong(-1);
        final AtomicReference<String> seen = new AtomicReference<>("");
        try {
            Await.until("quiet for 3 s before the stops", Duration.ofSeconds(40), Duration.ofMillis(250), () -> {
                final double now = System.currentTimeMillis() / 1000.0;
                final List<String> missing = new ArrayList<>();
                final List<Alert> active = new ArrayList<>();
                final String alerts = prometheus.alerts();
                for (final Host host : hosts) {
                    for (final String recorded : List.of("instance_jvm:mech_hiccup_seconds:p99_5m",
                        "instance_jvm:mech_hiccup_stall_seconds:rate5m")) {
                        if (PrometheusServer.values(prometheus.query(recorded + "{jvm=\"host\",instance=\"" + host.instance() + "\"}",
                            now)).isEmpty()) {
                            missing.add(host.histogram() + " " + recorded);
                        }
                    }
                    active.addAll(hostAlerts(alerts, host.instance(), names));
                }
                seen.set("missing " + missing + ", active " + active);
                if (!missing.isEmpty() || !active.isEmpty()) {
                    quietSince.set(-1);
                    return false;
                }
                quietSince.compareAndSet(-1, System.nanoTime());
                return System.nanoTime() - quietSince.get() >= TimeUnit.SECONDS.toNanos(3);
            });
        } catch (final AssertionError notQuiet) {
            throw new AssertionError("not quiet for 3 s within 40 s before the stops: " + seen.get() + "; prometheus.log:\n"
                + Files.readString(dir.resolve("prometheus.log")), notQuiet);
        }
    }

    /** Waits until every one of the alerts fires for the host JVM of the given host; 30 s at most. */
    private static List<Alert> awaitFiring(final PrometheusServer prometheus, final Host host, final Set<String> names,
                                           final long stoppedMillis) throws Exception {
        final AtomicReference<List<Alert>> active = new AtomicReference<>(List.of());
        try {
            return Await.value(names + " firing", Duration.ofSeconds(30), Duration.ofMillis(250), () -> {
                active.set(hostAlerts(prometheus.alerts(), host.instance(), names));
                final List<Alert> firing = active.get().stream().filter(a -> a.state().equals("firing")).toList();
                return firing.size() == names.size() ? firing : null;
            });
        } catch (final AssertionError notAll) {
            throw new AssertionError(names + " not all firing within 30 s of a stop of " + stoppedMillis
                + " ms of the " + host.histogram() + " host; active: " + active.get(), notAll);
        }
    }

    private static int countOf(final String text, final String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }

    /** The alerts with the given names active for the host JVM of the given instance. */
    private static List<Alert> hostAlerts(final String json, final String instance, final Set<String> names) {
        final List<Alert> alerts = new ArrayList<>();
        final Matcher m = ALERT.matcher(json);
        while (m.find()) {
            final Map<String, String> labels = new LinkedHashMap<>();
            final Matcher label = LABEL.matcher(m.group(1));
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
            if (names.contains(labels.get("alertname")) && instance.equals(labels.get("instance")) && "host".equals(labels.get("jvm"))) {
                alerts.add(new Alert(labels, m.group(2), Instant.parse(m.group(3)), Double.parseDouble(m.group(4))));
            }
        }
        if (json.contains("\"alerts\":[{") && alerts.isEmpty() && !ALERT.matcher(json).find()) {
            throw new AssertionError("alerts not understood: " + json);
        }
        return alerts;
    }

}
