package io.mech.exporter;

import io.mech.hiccup.cause.CgroupThrottling;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The kernel's figures behind the causes outside the JVM, for a dashboard to show beside the
 * hiccups: the process's CPU cgroup's quota, period and throttling since mech started, and the
 * hiccup meter's own wait in the run queue. The quota and period are left out where the kernel
 * gives none; the periods and throttling read 0 where there is no cgroup, which throttles nothing.
 */
public final class CgroupFamilies implements MetricFamilies {

    /** Where no cgroup's figures are read: no quota, nothing throttled. */
    private static final CgroupThrottling NONE = new CgroupThrottling(-1, 0, 0, 0, 0);
    private final MetricMetadata quotaFamily = Metadata.gauge("mech_cgroup_cpu_quota_seconds", Unit.SECONDS,
        "CPU time the process's cgroup may use every period (a container's CPU limit times the period)");
    private final MetricMetadata periodFamily = Metadata.gauge("mech_cgroup_cpu_period_seconds", Unit.SECONDS,
        "The period the process's cgroup's CPU quota is counted over");
    private final MetricMetadata periodsFamily = Metadata.counter("mech_cgroup_cpu_periods", null,
        "Quota periods with the cgroup's threads runnable, since mech started");
    private final MetricMetadata throttledPeriodsFamily = Metadata.counter("mech_cgroup_cpu_throttled_periods", null,
        "Quota periods in which the process's cgroup spent its quota and was throttled, since mech started");
    private final MetricMetadata throttledSecondsFamily = Metadata.counter("mech_cgroup_cpu_throttled_seconds", Unit.SECONDS,
        "Time the process's cgroup was throttled, summed over its CPUs as the kernel counts it, since mech started");
    private final MetricMetadata runQueueFamily = Metadata.counter("mech_hiccup_meter_run_queue_seconds", Unit.SECONDS,
        "Time the hiccup meter's thread was runnable and waited for a core, since it began");

    private final Supplier<CgroupThrottling> throttling;
    private final LongSupplier runQueueNanos;

    /**
     * @param throttling    the cgroup's throttling since mech started, null where it cannot be read
     * @param runQueueNanos the meter's run-queue wait since it began, negative where the kernel gives none
     */
    public CgroupFamilies(final Supplier<CgroupThrottling> throttling, final LongSupplier runQueueNanos) {
        this.throttling = throttling;
        this.runQueueNanos = runQueueNanos;
    }

    @Override
    public List<String> names() {
        return List.of("mech_cgroup_cpu_quota_seconds", "mech_cgroup_cpu_period_seconds", "mech_cgroup_cpu_periods",
            "mech_cgroup_cpu_throttled_periods", "mech_cgroup_cpu_throttled_seconds", "mech_hiccup_meter_run_queue_seconds");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final List<MetricSnapshot> families = new ArrayList<>(6);
        final CgroupThrottling found = throttling.get();
        // no cgroup, or none read yet: nothing was throttled, which a dashboard's ratio should show as 0
        final CgroupThrottling t = found == null ? NONE : found;
        if (t != NONE) {
            if (t.quotaMicros() >= 0) {
                families.add(OnePoint.gauge(quotaFamily, t.quotaMicros() / 1e6));
            }
            families.add(OnePoint.gauge(periodFamily, t.periodMicros() / 1e6));
        }
        families.add(OnePoint.counter(periodsFamily, t.periods()));
        families.add(OnePoint.counter(throttledPeriodsFamily, t.throttledPeriods()));
        families.add(OnePoint.counter(throttledSecondsFamily, t.throttledNanos() / 1e9));
        final long waited = runQueueNanos.getAsLong();
        if (waited >= 0) {
            families.add(OnePoint.counter(runQueueFamily, waited / 1e9));
        }
        return families;
    }
}
