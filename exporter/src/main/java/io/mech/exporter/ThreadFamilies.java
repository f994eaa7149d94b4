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
    private static final Thread.State[] STATES = Thread.State.values();
    /** Each state's label, by the state's ordinal. */
    private static final Labels[] STATE_LABELS = new Labels[STATES.length];
    private static final Labels UNKNOWN_LABELS = Labels.of("state", UNKNOWN);
    private static final MetricMetadata CURRENT = Metadata.gauge("jvm_threads_current", null, "Current thread count of a JVM");
    private static final MetricMetadata DAEMON = Metadata.gauge("jvm_threads_daemon", null, "Daemon thread count of a JVM");
    private static final MetricMetadata PEAK = Metadata.gauge("jvm_threads_peak", null, "Peak thread count of a JVM");
    private static final MetricMetadata STARTED = Metadata.counter("jvm_threads_started", null, "Started thread count of a JVM");
    private static final MetricMetadata STATE = Metadata.gauge("jvm_threads_state", null, "Current count of threads by state");

    static {
        for (final Thread.State state : STATES) {
            STATE_LABELS[state.ordinal()] = Labels.of("state", state.name());
        }
    }

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    @Override
    public List<String> names() {
        return List.of("jvm_threads_current", "jvm_threads_daemon", "jvm_threads_peak", "jvm_threads_started", "jvm_threads_state");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final long[] counts = new long[STATES.length];
        for (final Thread thread : LiveThreads.list()) {
            counts[thread.getState().ordinal()]++;
        }
        final List<GaugeSnapshot.GaugeDataPointSnapshot> states = new ArrayList<>(STATES.length + 1);
        for (final Thread.State state : STATES) {
            states.add(OnePoint.gaugePoint(STATE_LABELS[state.ordinal()], counts[state.ordinal()]));
        }
        states.add(OnePoint.gaugePoint(UNKNOWN_LABELS, 0));
        return List.of(OnePoint.gauge(CURRENT, threads.getThreadCount()), OnePoint.gauge(DAEMON, threads.getDaemonThreadCount()),
            OnePoint.gauge(PEAK, threads.getPeakThreadCount()), OnePoint.counter(STARTED, threads.getTotalStartedThreadCount()),
            new GaugeSnapshot(STATE, states));
    }
}
