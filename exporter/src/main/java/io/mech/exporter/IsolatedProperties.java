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
 *
 * <p>It also leaves out the two families of client_java's JVM metrics that stop the host:
 * {@code jvm_threads_deadlocked} and {@code jvm_threads_deadlocked_monitor} call
 * {@code ThreadMXBean.findDeadlockedThreads} and {@code findMonitorDeadlockedThreads}, each a VM
 * operation run at a safepoint (HotSpot's {@code FindDeadlocks}), so every scrape would bring every
 * thread of the host to a halt twice: a pause monitor must not make the pauses it reports. An
 * excluded name is never collected (client_java's registry asks a collector only for names its
 * filter admits). mech's deadlock probe ({@code probes.deadlocks}) serves
 * {@code mech_deadlocked_threads} instead, at a cadence of its own, with the threads named.
 */
final class IsolatedProperties {

    private IsolatedProperties() {
    }

    /** The JVM metrics' families that each cost the host a safepoint at every scrape. */
    static final String[] SAFEPOINT_FAMILIES = {"jvm_threads_deadlocked", "jvm_threads_deadlocked_monitor"};

    static PrometheusProperties create() {
        return PrometheusProperties.builder()
            .defaultMetricsProperties(MetricsProperties.builder().build())
            .exemplarProperties(ExemplarsProperties.builder().build())
            .exporterProperties(ExporterProperties.builder().build())
            .exporterFilterProperties(ExporterFilterProperties.builder().excludedNames(SAFEPOINT_FAMILIES).build())
            .exporterHttpServerProperties(ExporterHttpServerProperties.builder().build())
            .pushgatewayProperties(ExporterPushgatewayProperties.builder().build())
            .exporterOpenTelemetryProperties(ExporterOpenTelemetryProperties.builder().build())
            .build();
    }
}
