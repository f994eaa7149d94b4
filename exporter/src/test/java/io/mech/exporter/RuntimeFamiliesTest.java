package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmBufferPoolMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmClassLoadingMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmCompilationMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmGarbageCollectorMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmRuntimeInfoMetric;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** mech's runtime families against the five client_java collectors they replace, in the same JVM. */
class RuntimeFamiliesTest {

    private static List<String> text(final PrometheusRegistry registry) throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, registry.scrape(), EscapingScheme.ALLOW_UTF8);
        return List.of(out.toString(StandardCharsets.UTF_8).split("\n"));
    }

    /** A series line without its value, which may move between two reads; metadata lines whole. */
    private static List<String> shapes(final List<String> lines) {
        final List<String> shapes = new ArrayList<>();
        for (final String line : lines) {
            shapes.add(line.startsWith("#") ? line : line.substring(0, line.lastIndexOf(' ')));
        }
        return shapes;
    }

    @Test
    void servesWhatClientJavasFiveCollectorsServeUnderTheSameNamesHelpUnitsAndLabels() throws IOException {
        final PrometheusProperties config = PrometheusProperties.get();
        final PrometheusRegistry theirs = new PrometheusRegistry();
        JvmBufferPoolMetrics.builder(config).register(theirs);
        JvmClassLoadingMetrics.builder(config).register(theirs);
        JvmCompilationMetrics.builder(config).register(theirs);
        JvmGarbageCollectorMetrics.builder(config).register(theirs);
        JvmRuntimeInfoMetric.builder(config).register(theirs);
        final PrometheusRegistry ours = new PrometheusRegistry();
        final RuntimeFamilies families = new RuntimeFamilies();
        ours.register(new MechCollector(List.of(families)));
        final List<String> expected = text(theirs);
        final List<String> served = text(ours);
        assertEquals(shapes(expected), shapes(served));
        final String info = expected.stream().filter(line -> line.startsWith("jvm_runtime_info{")).findFirst().orElseThrow();
        assertTrue(served.contains(info), info + " in " + served);
        final List<String> declared = new ArrayList<>(families.names());
        for (final String line : served) {
            if (line.startsWith("# TYPE ")) {
                final String name = line.split(" ")[2];
                assertTrue(declared.remove(name) || declared.remove(name.replaceAll("_(total|info)$", "")), line + " declared");
            }
        }
        assertEquals(List.of(), declared, "declared and served");
    }
}
