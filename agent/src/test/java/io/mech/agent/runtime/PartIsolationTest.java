package io.mech.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.agent.Parts;
import io.mech.agent.options.Options;
import io.mech.exporter.InternalErrors;
import io.mech.exporter.JoinedFamilies;
import io.mech.exporter.MetricFamilies;
import io.mech.report.Report;
import io.mech.report.Section;
import io.mech.report.TextReport;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * One part that throws, from its families or its report section, is one warning and one count
 * in {@code mech_internal_errors_total{component}}; the other parts' output is intact.
 */
class PartIsolationTest {

    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final InternalErrors errors = new InternalErrors(warnings::add);

    /** A part that works, serving one gauge and one report line under its name. */
    private static Part working(final String name) {
        return new Part() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public List<MetricFamilies> families() {
                return List.of(MetricFamilies.of(List.of("mech_" + name), () -> List.of(GaugeSnapshot.builder().name("mech_" + name)
                    .help("a gauge").dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(1).build()).build())));
            }

            @Override
            public Section section() {
                return new Section(name, List.of(name + " is fine"), List.of(json -> json.field("ok", true)));
            }
        };
    }

    /** A part whose families and section throw, as a bug would make them. */
    private static Part broken() {
        return new Part() {
            @Override
            public String name() {
                return "broken";
            }

            @Override
            public List<MetricFamilies> families() {
                return List.of(MetricFamilies.of(List.of("mech_broken"), () -> {
                    throw new IllegalStateException("scrape bug");
                }));
            }

            @Override
            public Section section() {
                throw new IllegalStateException("report bug");
            }
        };
    }

    private static List<String> names(final List<MetricSnapshot> families) {
        return families.stream().map(f -> f.getMetadata().getPrometheusName()).collect(Collectors.toList());
    }

    @Test
    void aPartWhoseFamiliesThrowIsLeftOutOfTheScrapeAndCounted() {
        final JoinedFamilies joined = new JoinedFamilies(errors);
        joined.add("first", working("first").families());
        joined.add("broken", broken().families());
        assertEquals(List.of("mech_first"), names(joined.collect()));
        joined.add("second", working("second").families());
        assertEquals(List.of("mech_first", "mech_second"), names(joined.collect()), "each family once");
        assertEquals(List.of("mech_first", "mech_second"), names(joined.collect()));
        assertEquals(3, errors.count("scrape broken"), "counted at every scrape it fails");
        assertEquals(1, warnings.size(), "one warning a component: " + warnings);
    }

    @Test
    void aFamilyThatStartsThrowingLaterCostsOnlyItsOwnSeries() {
        final boolean[] fail = {false};
        final MetricFamilies flaky = MetricFamilies.of(List.of("mech_flaky"), () -> {
            if (fail[0]) {
                throw new IllegalStateException("late bug");
            }
            return List.of(GaugeSnapshot.builder().name("mech_flaky").help("a gauge").build());
        });
        final JoinedFamilies joined = new JoinedFamilies(errors);
        joined.add("flaky", List.of(flaky));
        joined.add("first", working("first").families());
        assertEquals(List.of("mech_flaky", "mech_first"), names(joined.collect()));
        fail[0] = true;
        assertEquals(List.of("mech_first"), names(joined.collect()));
        assertEquals(List.of("mech_first"), names(joined.collect()));
        assertEquals(2, errors.count("scrape flaky"));
        assertEquals(1, warnings.size(), "one warning a component: " + warnings);
    }

    @Test
    void aFamilyNameServedTwiceIsRefusedAtRegistration() {
        final JoinedFamilies joined = new JoinedFamilies(errors);
        joined.add("first", working("first").families());
        joined.add("again", working("first").families());
        assertEquals(1, errors.count("register again"), "refused as it is added, before any scrape");
        assertEquals(List.of("mech_first"), names(joined.collect()));
        assertEquals(List.of("mech_first"), names(joined.collect()));
        assertEquals(1, errors.count("register again"));
    }

    @Test
    void aFamilyUnderANameItsSourceDidNotDeclareIsLeftOutAndCounted() {
        final MetricFamilies sloppy = MetricFamilies.of(List.of("mech_declared"), () -> List.of(
            GaugeSnapshot.builder().name("mech_declared").help("a gauge").build(),
            GaugeSnapshot.builder().name("mech_first").help("a name another part serves").build()));
        final JoinedFamilies joined = new JoinedFamilies(errors);
        joined.add("first", working("first").families());
        joined.add("sloppy", List.of(sloppy));
        assertEquals(List.of("mech_first", "mech_declared"), names(joined.collect()));
        assertEquals(1, errors.count("scrape sloppy"));
    }

    @Test
    void aPartWhoseSectionThrowsLeavesTheOthersInTheReport() {
        final Options options = Options.parse(Parts.options(), "report=stderr", new Properties(), Map.of(), warnings::add);
        final Report report = new Reporter(options, List.of(working("first"), broken(), working("second")),
            System.nanoTime(), errors, "hiccup recorder off").gather();
        final String text = TextReport.render(report);
        assertTrue(text.contains("first is fine") && text.contains("second is fine"), text);
        assertTrue(text.contains("the broken section failed"), text);
        assertEquals(1, errors.count("report broken"));
    }
}
