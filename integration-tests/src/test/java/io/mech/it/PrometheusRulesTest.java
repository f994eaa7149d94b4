package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mech.it.hosts.SleepingHost;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/prometheus/mech-rules.yml: promtool checks it and runs its unit tests, and a real
 * Prometheus evaluating it fires its hiccup alerts when the JVM it scrapes is stopped.
 */
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
     * A test copy of the rules with 10 s windows instead of 5 and 10 minutes, {@code for: 2s}
     * instead of 5 minutes, and a stall-share threshold of 1% instead of 5%, so that one stop of
     * 310 ms fires the hiccup alerts within seconds: in 10 s of 1 ms samples the stop fills about
     * 3%, so the p99 lands deep inside it, and its 0.31 s are 3% of the window's wall time.
     */
    private Path testCopy() throws Exception {
        String rules = Files.readString(rulesFile());
        rules = replace(rules, "[5m]", "[10s]");
        rules = replace(rules, "[10m]", "[10s]");
        rules = replace(rules, "for: 5m", "for: 2s");
        rules = replace(rules, "instance_jvm:mech_hiccup_stall_seconds:rate5m > 0.05", "instance_jvm:mech_hiccup_stall_seconds:rate5m > 0.01");
        assertTrue(rules.contains("instance_jvm:mech_hiccup_seconds:p99_5m > 0.05"), "the p99 alert keeps the shipped threshold");
        return Files.writeString(dir.resolve("mech-rules-fast.yml"), rules);
    }

    private static String replace(final String text, final String from, final String to) {
        assertTrue(text.contains(from), "the rules no longer hold '" + from + "'; update the test copy");
        return text.replace(from, to);
    }

    @Test
    void realPrometheusFiresTheHiccupAlertsOnAStop() throws Exception {
        tool("prometheus");
        final Path rules = testCopy();
        final int mechPort = PrometheusServer.freePort();
        final Forked host = Forked.start(dir, Forked.javaWithMech(Path.of(System.getProperty("java.home")),
            "report=off,hiccup.log=,hiccup.interval=1s,prometheus.port=" + mechPort,
            "-cp", Paths.testClasses(), SleepingHost.class.getName(), "120000"));
        final String instance = "127.0.0.1:" + mechPort;
        final Set<String> names = Set.of("MechHiccupP99High", "MechStallTimeHigh");
        try (PrometheusServer prometheus = PrometheusServer.start(dir, List.of(rules), mechPort)) {
            // Quiet first: both recorded series answer for the host JVM and neither alert is active.
            final long quietDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                final double now = System.currentTimeMillis() / 1000.0;
                final boolean recorded = !PrometheusServer.values(prometheus.query(
                    "instance_jvm:mech_hiccup_seconds:p99_5m{jvm=\"host\",instance=\"" + instance + "\"}", now)).isEmpty()
                    && !PrometheusServer.values(prometheus.query(
                        "instance_jvm:mech_hiccup_stall_seconds:rate5m{jvm=\"host\",instance=\"" + instance + "\"}", now)).isEmpty();
                final List<Alert> active = hostAlerts(prometheus.alerts(), instance, names);
                if (recorded && active.isEmpty()) {
                    break;
                }
                assertTrue(System.nanoTime() < quietDeadline, "not quiet within 30 s before the stop: recorded "
                    + recorded + ", active " + active + "; prometheus.log:\n" + Files.readString(dir.resolve("prometheus.log")));
                Thread.sleep(250);
            }
            // mech serves native buckets by default: the p99 came from the rule's native side.
            assertEquals(List.of(), PrometheusServer.values(prometheus.query("mech_hiccup_seconds_bucket",
                System.currentTimeMillis() / 1000.0)), "no classic buckets scraped");
            final String health = prometheus.rules();
            final String loaded = Files.readString(rules);
            final int count = ruleNames(loaded, "record").size() + ruleNames(loaded, "alert").size();
            assertEquals(count, countOf(health, "\"health\":\"ok\""), health);

            final Instant stopped = Instant.now();
            final long stoppedMillis = host.stopFor(Forked.STALL_MILLIS);

            final long fireDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            List<Alert> firing = List.of();
            while (firing.size() < names.size()) {
                assertTrue(System.nanoTime() < fireDeadline, "both alerts not firing within 30 s of a stop of " + stoppedMillis
                    + " ms; active: " + hostAlerts(prometheus.alerts(), instance, names));
                Thread.sleep(250);
                firing = hostAlerts(prometheus.alerts(), instance, names).stream().filter(a -> a.state().equals("firing")).toList();
            }
            for (final Alert alert : firing) {
                assertTrue(alert.activeAt().isAfter(stopped), alert + " became active before the stop at " + stopped);
                assertEquals("warning", alert.labels().get("severity"), alert.toString());
                if (alert.labels().get("alertname").equals("MechHiccupP99High")) {
                    // The p99 lies within the stop: above the threshold, and at most the stop plus a native bucket's width.
                    assertTrue(alert.value() > 0.05 && alert.value() <= stoppedMillis / 1000.0 * 1.1 + 0.01, alert.toString());
                } else {
                    assertTrue(alert.value() > 0.01, alert.toString());
                }
            }
        } finally {
            host.kill();
            host.await(30);
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
