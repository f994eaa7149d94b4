package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.instrumentation.jvm.JvmMemoryMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** mech's memory families against client_java's {@code JvmMemoryMetrics}, which they replace, in the same JVM. */
class MemoryFamiliesTest {

    @Test
    void servesWhatClientJavasJvmMemoryMetricsServeUnderTheSameNamesHelpAndLabels() throws IOException {
        final PrometheusRegistry theirs = new PrometheusRegistry();
        JvmMemoryMetrics.builder(PrometheusProperties.get()).register(theirs);
        final PrometheusRegistry ours = new PrometheusRegistry();
        final MemoryFamilies families = new MemoryFamilies();
        ours.register(new MechCollector(List.of(families)));
        final List<String> expected = ScrapeText.lines(theirs);
        final List<String> served = ScrapeText.lines(ours);
        assertEquals(ScrapeText.shapes(expected), ScrapeText.shapes(served));
        assertTrue(served.size() > 30, "every pool of this JVM: " + served.size() + " lines");
        for (final String line : expected) {
            // what no collection between the two reads changes
            if (line.startsWith("jvm_memory_init_bytes") || line.startsWith("jvm_memory_pool_init_bytes")
                || line.startsWith("jvm_memory_pool_max_bytes{pool=\"CodeHeap")) {
                assertTrue(served.contains(line), line + " in " + served);
            }
        }
        final List<String> declared = new ArrayList<>(families.names());
        declared.sort(null);
        assertEquals(declared, ScrapeText.familyNames(served), "declared and served");
    }
}
