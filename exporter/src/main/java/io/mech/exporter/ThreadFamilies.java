package io.mech.exporter;

import io.mech.probes.LiveThreads;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * The thread families of client_java's {@code JvmThreadsMetrics}, under its names, help and label
 * values, so that dashboards read them unchanged: {@code jvm_threads_current}, {@code _daemon},
 * {@code _peak}, {@code _started_total} and {@code jvm_threads_state{state}}. Its two deadlock
 * gauges are left out: {@code ThreadMXBean.findDeadlockedThreads} is a VM operation, which would
 * stop the host at every scrape.
 *
 * <p>Served by mech instead because client_java counts the states through
 * {@code ThreadMXBean.getThreadInfo} over every thread id, which on JDK 17 looks each id up by a
 * walk of the thread list: a scrape took 51-62 ms at 5,000 threads, and grew with their square.
 * Here each live platform thread's {@link Thread#getState()}, one field read, is counted over the
 * root thread group's listing, which holds the threads {@code getAllThreadIds} returns.
 *
 * <p>Thread-safe: scrapes may collect concurrently; each lists the threads on its own.
 */
final class ThreadFamilies implements MetricFamilies {

    /** client_java's label value for a thread whose state it could not read. */
    private static final String UNKNOWN = "UNKNOWN";
    private final Thread.State[] states = Thread.State.values();
    /** Each state's label, by the state's ordinal. */
    private final Labels[] stateLabels = new Labels[states.length];
    private final Labels unknownLabels = Labels.of("state", UNKNOWN);
    private final MetricMetadata currentFamily = Metadata.gauge("jvm_threads_current", null, "Current thread count of a JVM");
    private final MetricMetadata daemonFamily = Metadata.gauge("jvm_threads_daemon", null, "Daemon thread count of a JVM");
    private final MetricMetadata peakFamily = Metadata.gauge("jvm_threads_peak", null, "Peak thread count of a JVM");
    private final MetricMetadata startedFamily = Metadata.counter("jvm_threads_started", null, "Started thread count of a JVM");
    private final MetricMetadata stateFamily = Metadata.gauge("jvm_threads_state", null, "Current count of threads by state");

    ThreadFamilies() {
        for (final Thread.State state : states) {
            stateLabels[state.ordinal()] = Labels.of("state", state.name());
        }
    }

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    @Override
    public List<String> names() {
        return List.of("jvm_threads_current", "jvm_threads_daemon", "jvm_threads_peak", "jvm_threads_started", "jvm_threads_state");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final long[] counts = new long[states.length];
        for (final Thread thread : LiveThreads.list()) {
            counts[thread.getState().ordinal()]++;
        }
        final List<GaugeSnapshot.GaugeDataPointSnapshot> byState = new ArrayList<>(states.length + 1);
        for (final Thread.State state : states) {
            byState.add(OnePoint.gaugePoint(stateLabels[state.ordinal()], counts[state.ordinal()]));
        }
        byState.add(OnePoint.gaugePoint(unknownLabels, 0));
        return List.of(OnePoint.gauge(currentFamily, threads.getThreadCount()), OnePoint.gauge(daemonFamily, threads.getDaemonThreadCount()),
            OnePoint.gauge(peakFamily, threads.getPeakThreadCount()), OnePoint.counter(startedFamily, threads.getTotalStartedThreadCount()),
            new GaugeSnapshot(stateFamily, byState));
    }
}
