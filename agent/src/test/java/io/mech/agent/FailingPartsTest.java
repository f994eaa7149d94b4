package io.mech.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mech composed of parts that each fail in one place, as a bug would make them: at start, in
 * their families, in their report section and in their settling at exit, beside one part that
 * works and comes after them all. Each failure is counted under its part's name, and the working
 * part starts, is scraped, reports and settles as if the others were not there.
 */
class FailingPartsTest {

    @TempDir
    Path dir;

    /** A part of the early stage, switched on by a switch of its own that is on by default. */
    private static PartSpec spec(final String name, final PartSpec.Starter start) {
        return new PartSpec(name, List.of(Option.of("test." + name, Option.Kind.SWITCH, "on", "a test's part")),
            PartSpec.Stage.EARLY, false, null, start);
    }

    /** A part serving the gauge mech_{name}, reporting "{name} is fine", and failing where told. */
    private static Part part(final String name, final boolean badFamilies, final boolean badSection, final boolean badSettle,
                             final AtomicBoolean settled) {
        return new Part() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public List<MetricFamilies> families() {
                final String gauge = "mech_" + name.replace('-', '_');
                return List.of(MetricFamilies.of(List.of(gauge), () -> {
                    if (badFamilies) {
                        throw new IllegalStateException("scrape bug");
                    }
                    return List.of(GaugeSnapshot.builder().name(gauge).help("a gauge")
                        .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(1).build()).build());
                }));
            }

            @Override
            public Section section() {
                if (badSection) {
                    throw new IllegalStateException("report bug");
                }
                return new Section(name, List.of(name + " is fine"), List.of());
            }

            @Override
            public void settle(final long deadline) {
                if (badSettle) {
                    throw new IllegalStateException("settle bug");
                }
                settled.set(true);
            }
        };
    }

    @Test
    void eachFailureIsCountedUnderItsPartAndTheWorkingPartIsWhole() throws Exception {
        final AtomicBoolean wellSettled = new AtomicBoolean();
        final AtomicBoolean unused = new AtomicBoolean();
        final List<PartSpec> composed = List.of(
            spec("starts-badly", context -> {
                throw new IllegalStateException("start bug");
            }),
            spec("scrapes-badly", context -> part("scrapes-badly", true, false, false, unused)),
            spec("reports-badly", context -> part("reports-badly", false, true, false, unused)),
            spec("settles-badly", context -> part("settles-badly", false, false, true, unused)),
            spec("well", context -> part("well", false, false, false, wellSettled)));
        final Path json = dir.resolve("report.json");
        final Options options = Options.parse("hiccup=off,probes.locks=off,prometheus.port=0,report=" + dir.resolve("report.txt")
            + ",report.json=" + json, new Properties(), Map.of(), warning -> { });
        final Mech mech = new Mech(options, true, null, composed);
        mech.startParts();

        final String metrics = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()
            .send(HttpRequest.newBuilder(URI.create(System.getProperty(Mech.METRICS_PROPERTY))).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(metrics.contains("\nmech_well 1.0") && metrics.contains("\nmech_settles_badly 1.0"), metrics);
        assertFalse(metrics.contains("mech_scrapes_badly"), metrics);

        mech.stop(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Mech.STOP_BUDGET_MILLIS));
        final String report = Files.readString(json);
        assertTrue(report.contains("\"well\":{\"lines\":[\"well is fine\"]"), report);
        assertTrue(report.contains("\"scrapes-badly\":{\"lines\":[\"scrapes-badly is fine\"]"), report);
        assertTrue(report.contains("\"settles-badly\":{\"lines\":[\"settles-badly is fine\"]"), report);
        assertTrue(report.contains("the reports-badly section failed"), report);
        assertFalse(report.contains("starts-badly"), report);
        assertTrue(wellSettled.get(), "the working part settled after the one that threw");

        assertEquals(1, mech.errors().count("start starts-badly"));
        assertEquals(1, mech.errors().count("register scrapes-badly") + mech.errors().count("scrape scrapes-badly"));
        assertEquals(1, mech.errors().count("report reports-badly"));
        assertEquals(1, mech.errors().count("settle settles-badly"));
        assertEquals(0, mech.errors().count("start well") + mech.errors().count("settle well") + mech.errors().count("report well"));
    }
}
