package io.mech.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.agent.Parts;
import io.mech.agent.options.Option;
import io.mech.agent.options.Options;
import io.mech.exporter.MetricFamilies;
import io.mech.report.Section;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mech composed of parts that each fail in one place, as a bug would make them: at start, in
 * their families, in their report section, in their deferred start, in their settling and in
 * their close at exit, beside one part that works. The parts that fail at exit sit on the side of
 * the working part that is asked first (settling runs from the last started part back, closing
 * from the first on), so the working part's own steps come after a failure. Each failure is
 * counted under its part's name, and the working part starts, is scraped, reports, settles and
 * closes as if the others were not there.
 */
class FailingPartsTest {

    @TempDir
    Path dir;

    /** A part of the early stage, switched on by a switch of its own that is on by default. */
    private static PartSpec spec(final String name, final PartSpec.Starter start) {
        return new PartSpec(name, List.of(Option.onOff("test." + name, "on", "a test's part")),
            PartSpec.Stage.EARLY, false, null, start);
    }

    /** A part serving the gauge mech_{name}, reporting "{name} is fine", failing at the step named, and counting the rest. */
    private static Part part(final String name, final String failsAt, final List<String> done) {
        return new Part() {
            @Override
            public String name() {
                return name;
            }

            private void step(final String step) {
                if (step.equals(failsAt)) {
                    throw new IllegalStateException(step + " bug");
                }
                done.add(name + " " + step);
            }

            @Override
            public List<MetricFamilies> families() {
                final String gauge = "mech_" + name.replace('-', '_');
                return List.of(MetricFamilies.of(List.of(gauge), () -> {
                    step("scrape");
                    return List.of(GaugeSnapshot.builder().name(gauge).help("a gauge")
                        .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(1).build()).build());
                }));
            }

            @Override
            public Section section() {
                step("report");
                return new Section(name, List.of(name + " is fine"), List.of());
            }

            @Override
            public void startDeferred() {
                step("deferred");
            }

            @Override
            public void settle(final long deadline) {
                step("settle");
            }

            @Override
            public void close() {
                step("close");
            }
        };
    }

    @Test
    void eachFailureIsCountedUnderItsPartAndTheWorkingPartIsWhole() throws Exception {
        final List<String> done = new CopyOnWriteArrayList<>();
        final List<PartSpec> composed = List.of(
            spec("starts-badly", context -> {
                throw new IllegalStateException("start bug");
            }),
            spec("scrapes-badly", context -> part("scrapes-badly", "scrape", done)),
            spec("reports-badly", context -> part("reports-badly", "report", done)),
            spec("defers-badly", context -> part("defers-badly", "deferred", done)),
            spec("closes-badly", context -> part("closes-badly", "close", done)),
            spec("well", context -> part("well", "", done)),
            spec("settles-badly", context -> part("settles-badly", "settle", done)));
        final Path json = dir.resolve("report.json");
        final Options options = Options.parse(Parts.options(), "hiccup=off,probes.locks=off,prometheus.port=0,report=" + dir.resolve("report.txt")
            + ",report.json=" + json, new Properties(), Map.of(), warning -> { });
        final Mech mech = new Mech(options, true, null, composed);
        mech.startParts();

        final String metrics = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()
            .send(HttpRequest.newBuilder(URI.create(System.getProperty(Mech.METRICS_PROPERTY))).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(metrics.contains("\nmech_well 1.0") && metrics.contains("\nmech_settles_badly 1.0"), metrics);
        assertFalse(metrics.contains("mech_scrapes_badly"), metrics);

        mech.stop(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ExitBudget.STOP_BUDGET_MILLIS));
        assertNull(System.getProperty(Mech.METRICS_PROPERTY), "/metrics closed: its address is no longer published");
        final String report = Files.readString(json);
        assertTrue(report.contains("\"well\":{\"lines\":[\"well is fine\"]"), report);
        assertTrue(report.contains("\"scrapes-badly\":{\"lines\":[\"scrapes-badly is fine\"]"), report);
        assertTrue(report.contains("\"settles-badly\":{\"lines\":[\"settles-badly is fine\"]"), report);
        assertTrue(report.contains("the reports-badly section failed"), report);
        assertFalse(report.contains("\"starts-badly\":"), "no section: " + report);
        assertTrue(report.contains("internal errors: close closes-badly x1, report reports-badly x1, scrape scrapes-badly x1"), report);
        assertTrue(done.containsAll(List.of("well deferred", "well scrape", "well settle", "well close", "well report")), done.toString());
        assertTrue(done.indexOf("well settle") < done.indexOf("well close") && done.indexOf("well close") < done.lastIndexOf("well report"),
            "settled, closed, then in the final report: " + done);

        assertEquals(1, mech.errors().count("start starts-badly"));
        assertEquals(1, mech.errors().count("scrape scrapes-badly"));
        assertEquals(1, mech.errors().count("report reports-badly"));
        assertEquals(1, mech.errors().count("start deferred defers-badly"));
        assertEquals(1, mech.errors().count("settle settles-badly"));
        assertEquals(1, mech.errors().count("close closes-badly"));
        for (final String step : List.of("start ", "start deferred ", "scrape ", "report ", "settle ", "close ")) {
            assertEquals(0, mech.errors().count(step + "well"), step + "well");
        }
    }
}
