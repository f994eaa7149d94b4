package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.hiccup.UnmeteredStops;
import io.mech.hiccup.cause.CgroupThrottling;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The kernel's figures and the stops before the meter, each under a declared name, in seconds. */
class KernelAndUnmeteredFamiliesTest {

    @Test
    void aThrottledCgroupServesItsQuotaPeriodsAndTheMetersWait() {
        final CgroupFamilies families = new CgroupFamilies(() -> new CgroupThrottling(50_000, 100_000, 142, 77, 11_133_000_000L),
            () -> 2_500_000_000L);
        final Map<String, Double> values = values(families.collect(), families.names());
        assertEquals(Map.of("mech_cgroup_cpu_quota_seconds", 0.05, "mech_cgroup_cpu_period_seconds", 0.1, "mech_cgroup_cpu_periods", 142.0,
            "mech_cgroup_cpu_throttled_periods", 77.0, "mech_cgroup_cpu_throttled_seconds", 11.133,
            "mech_hiccup_meter_run_queue_seconds", 2.5), values);
    }

    @Test
    void withoutACgroupNothingIsThrottledAndNoQuotaIsMadeUp() {
        final CgroupFamilies families = new CgroupFamilies(() -> null, () -> -1);
        final Map<String, Double> values = values(families.collect(), families.names());
        assertEquals(Map.of("mech_cgroup_cpu_periods", 0.0, "mech_cgroup_cpu_throttled_periods", 0.0, "mech_cgroup_cpu_throttled_seconds", 0.0),
            values);
    }

    @Test
    void theStopsBeforeTheMeterAreGaugesByCause() {
        final UnmeteredFamilies families = new UnmeteredFamilies(() -> new UnmeteredStops(1161, 6, 6, 249_276_000, 3_244_000, 18_842_000));
        final List<MetricSnapshot> collected = families.collect();
        assertEquals(List.of("mech_hiccup_meter_began_seconds", "mech_hiccup_unmetered_seconds"),
            collected.stream().map(f -> f.getMetadata().getPrometheusName()).toList());
        assertEquals(1.161, ((GaugeSnapshot) collected.get(0)).getDataPoints().get(0).getValue(), 1e-9);
        final Map<String, Double> byCause = new TreeMap<>();
        for (final GaugeSnapshot.GaugeDataPointSnapshot point : ((GaugeSnapshot) collected.get(1)).getDataPoints()) {
            byCause.put(point.getLabels().get("cause"), point.getValue());
        }
        assertEquals(Map.of("gc", 0.249276, "safepoint", 0.003244, "ttsp", 0.018842), byCause);
        assertTrue(new UnmeteredFamilies(() -> null).collect().isEmpty(), "nothing before the meter began");
    }

    private static Map<String, Double> values(final List<MetricSnapshot> collected, final List<String> declared) {
        final Map<String, Double> values = new TreeMap<>();
        for (final MetricSnapshot family : collected) {
            final String name = family.getMetadata().getPrometheusName();
            assertTrue(declared.contains(name), name + " is declared");
            final DataPointSnapshot point = family.getDataPoints().get(0);
            values.put(name, point instanceof CounterSnapshot.CounterDataPointSnapshot counter ? counter.getValue()
                : ((GaugeSnapshot.GaugeDataPointSnapshot) point).getValue());
        }
        return values;
    }
}
