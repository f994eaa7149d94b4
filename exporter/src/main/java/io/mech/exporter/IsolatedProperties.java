package io.mech.exporter;

import io.prometheus.metrics.config.ExemplarsProperties;
import io.prometheus.metrics.config.ExporterFilterProperties;
import io.prometheus.metrics.config.ExporterHttpServerProperties;
import io.prometheus.metrics.config.ExporterOpenTelemetryProperties;
import io.prometheus.metrics.config.ExporterProperties;
import io.prometheus.metrics.config.ExporterPushgatewayProperties;
import io.prometheus.metrics.config.MetricsProperties;
import io.prometheus.metrics.config.PrometheusProperties;

/**
 * client_java configuration that reads nothing from the host. client_java's own loader reads
 * {@code io.prometheus.*} system properties, {@code IO_PROMETHEUS_*} environment variables and a
 * {@code prometheus.properties} from the class path, where mech's relocated copy would find the
 * host's settings (the relocation renames the property prefix but not the file or the variables),
 * and it throws on properties it does not know. Only the {@code builder(config)} entry points
 * are used with this configuration; the no-argument ones call the loader.
 */
final class IsolatedProperties {

    private IsolatedProperties() {
    }

    static PrometheusProperties create() {
        return PrometheusProperties.builder()
            .defaultMetricsProperties(MetricsProperties.builder().build())
            .exemplarProperties(ExemplarsProperties.builder().build())
            .exporterProperties(ExporterProperties.builder().build())
            .exporterFilterProperties(ExporterFilterProperties.builder().build())
            .exporterHttpServerProperties(ExporterHttpServerProperties.builder().build())
            .pushgatewayProperties(ExporterPushgatewayProperties.builder().build())
            .exporterOpenTelemetryProperties(ExporterOpenTelemetryProperties.builder().build())
            .build();
    }
}
