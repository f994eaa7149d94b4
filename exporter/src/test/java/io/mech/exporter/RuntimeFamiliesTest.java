package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.instrumentation.jvm.JvmBufferPoolMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmClassLoadingMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmCompilationMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmGarbageCollectorMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmRuntimeInfoMetric;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** mech's runtime families against the five client_java collectors they replace, in the same JVM. */
class RuntimeFamiliesTest {

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
        final List<String> expected = ScrapeText.lines(theirs);
        final List<String> served = ScrapeText.lines(ours);
        assertEquals(ScrapeText.shapes(expected), ScrapeText.shapes(served));
        final String info = expected.stream().filter(line -> line.startsWith("jvm_runtime_info{")).findFirst().orElseThrow();
        assertTrue(served.contains(info), info + " in " + served);
        final List<String> declared = new ArrayList<>(families.names());
        declared.sort(null);
        assertEquals(declared, ScrapeText.familyNames(served), "declared and served");
    }
}
