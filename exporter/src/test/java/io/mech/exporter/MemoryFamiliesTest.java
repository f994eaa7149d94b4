package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMemoryMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** mech's memory families against client_java's {@code JvmMemoryMetrics}, which they replace, in the same JVM. */
class MemoryFamiliesTest {

    private static List<String> text(final PrometheusRegistry registry) throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, registry.scrape(), EscapingScheme.ALLOW_UTF8);
        return List.of(out.toString(StandardCharsets.UTF_8).split("\n"));
    }

    /** A series line without its value, which moves between two reads; metadata lines whole. */
    private static List<String> shapes(final List<String> lines) {
        final List<String> shapes = new ArrayList<>();
        for (final String line : lines) {
            shapes.add(line.startsWith("#") ? line : line.substring(0, line.lastIndexOf(' ')));
        }
        return shapes;
    }

    @Test
    void servesWhatClientJavasJvmMemoryMetricsServeUnderTheSameNamesHelpAndLabels() throws IOException {
        final PrometheusRegistry theirs = new PrometheusRegistry();
        JvmMemoryMetrics.builder(PrometheusProperties.get()).register(theirs);
        final PrometheusRegistry ours = new PrometheusRegistry();
        final MemoryFamilies families = new MemoryFamilies();
        ours.register(new MechCollector(List.of(families)));
        final List<String> expected = text(theirs);
        final List<String> served = text(ours);
        assertEquals(shapes(expected), shapes(served));
        assertTrue(served.size() > 30, "every pool of this JVM: " + served.size() + " lines");
        for (final String line : expected) {
            // what no collection between the two reads changes
            if (line.startsWith("jvm_memory_init_bytes") || line.startsWith("jvm_memory_pool_init_bytes")
                || line.startsWith("jvm_memory_pool_max_bytes{pool=\"CodeHeap")) {
                assertTrue(served.contains(line), line + " in " + served);
            }
        }
        final List<String> declared = new ArrayList<>(families.names());
        for (final String line : served) {
            if (line.startsWith("# TYPE ")) {
                assertTrue(declared.remove(line.split(" ")[2]), line + " declared");
            }
        }
        assertEquals(List.of(), declared, "declared and served");
    }
}
