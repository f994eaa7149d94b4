package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.testing.Await;
import io.prometheus.metrics.instrumentation.jvm.JvmMemoryPoolAllocationMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** mech's allocation counter against client_java's {@code JvmMemoryPoolAllocationMetrics}, fed the same collections. */
class PoolAllocationFamiliesTest {

    @Test
    void countsWhatClientJavasCounterCountsOverTheSameCollections() throws Exception {
        final PrometheusRegistry theirs = new PrometheusRegistry();
        JvmMemoryPoolAllocationMetrics.builder().register(theirs);
        final PrometheusRegistry ours = new PrometheusRegistry();
        final PoolAllocationFamilies families = new PoolAllocationFamilies();
        ours.register(new MechCollector(List.of(families)));
        final List<byte[]> garbage = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 64; j++) {
                garbage.add(new byte[64 * 1024]);
            }
            garbage.clear();
            System.gc();
        }
        // each listener is told of each collection on the JVM's notification thread, one after the other
        final List<String> served = Await.value("both counters told of the same collections", Duration.ofSeconds(10), () -> {
            final List<String> mine = ScrapeText.lines(ours);
            return mine.toString().contains("{pool=") && mine.equals(ScrapeText.lines(theirs)) ? mine : null;
        });
        assertTrue(served.get(0).startsWith("# HELP jvm_memory_pool_allocated_bytes_total Total bytes allocated in a given JVM memory pool."),
            served.toString());
    }

    @Test
    void countsWhatAPoolGrewBetweenCollectionsAndDuringOneIncreasesOnly() {
        final PoolAllocationFamilies families = new PoolAllocationFamilies();
        families.grew("eden", 100, 0);
        families.grew("old", 10, 40);
        families.grew("eden", 70, 0);
        families.grew("old", 30, 35);
        final CounterSnapshot counter = (CounterSnapshot) families.collect().get(0);
        assertEquals(2, counter.getDataPoints().size());
        for (final CounterSnapshot.CounterDataPointSnapshot point : counter.getDataPoints()) {
            final String pool = point.getLabels().get("pool");
            // eden: 100, then 70, before collections that empty it; old: 10 before the first and 30 during it,
            // then 10 less between the two, which counts nothing, and 5 during the second
            assertEquals(pool.equals("eden") ? 170 : 10 + 30 + 5, point.getValue(), pool);
        }
    }
}
