package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mech.probes.allocation.AllocationSnapshot;
import io.mech.probes.allocation.ThreadAllocation;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class AllocationFamiliesTest {

    @Test
    void theJvmsTotalAndEachTopThreadAreCountersAThreadsSpaceAnUnderscore() {
        final AllocationSnapshot snapshot = new AllocationSnapshot(3, 2_000_000_000L, 5_000, 2_500,
            List.of(new ThreadAllocation("worker 1", 4_000, 2_000, true), new ThreadAllocation("main", 500, 0, false)));
        final List<MetricSnapshot> families = new AllocationFamilies(() -> snapshot).collect();
        assertEquals(List.of("mech_allocated_bytes", "mech_thread_allocated_bytes"),
            families.stream().map(f -> f.getMetadata().getName()).toList());
        assertEquals(5_000, ((CounterSnapshot) families.get(0)).getDataPoints().get(0).getValue());
        final CounterSnapshot threads = (CounterSnapshot) families.get(1);
        assertEquals(Map.of("worker_1", 4_000.0, "main", 500.0), threads.getDataPoints().stream()
            .collect(Collectors.toMap(p -> p.getLabels().get("thread"), CounterSnapshot.CounterDataPointSnapshot::getValue)));
    }
}
