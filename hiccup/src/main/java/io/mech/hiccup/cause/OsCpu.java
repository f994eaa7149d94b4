package io.mech.hiccup.cause;

import io.mech.hiccup.CpuCgroup;
import io.mech.hiccup.ProcFile;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The machine's steal time from {@code /proc/stat} (a hypervisor running someone else) and the
 * process's cgroup's throttling ({@code cpu.stat}), sampled every 200 ms so that a stall can be
 * set against the change across it. The kernel counts steal machine-wide in ticks of 10 ms, too
 * coarse for the meter's own reading at each stall. The throttling is here too because the
 * meter's own window can miss it: since Linux 6.18 a throttled thread leaves the run queue when
 * it returns to user space, so it neither waits there nor, at times, sees the cgroup's figures
 * move before it runs again (a 31 ms stall of a host in a 50% quota read as a stop of the process).
 * Where a file is missing its figure stays zero.
 *
 * <p>Thread contract: sampled and asked under the causes' lock, one thread at a time.
 */
final class OsCpu {

    /** One reading. */
    private record Sample(long epochNanos, long stealTicks, long periods, long throttlings, long throttledNanos) {
    }

    private static final Path PROC_STAT = Path.of("/proc/stat");
    private static final String CPU = "cpu";
    /** A minute of samples: a stall waits at most ten seconds for its attribution. */
    private static final int KEEP = 300;
    private static final int QUOTA_EVERY = 5;
    /** USER_HZ on Linux, the unit of /proc/stat. */
    private static final long TICK_NANOS = 10_000_000L;

    private final Deque<Sample> samples = new ArrayDeque<>();
    /** The first sample, kept for the run's throttling. */
    private Sample first;
    /** The cgroup's {quota, period} as last read, once every {@link #QUOTA_EVERY} samples: a limit may change while the host runs. */
    private final long[] quota = new long[2];
    private boolean quotaRead;
    /** The cgroup's quota files; null without a cgroup or where unreadable. */
    private final CpuCgroup.Quota quotaFiles;
    private long sampled;

    /** The machine's CPU times: steal is the eighth number of the first line; null where unreadable. */
    private final ProcFile procStat = ProcFile.open(PROC_STAT);
    /** The cgroup's throttling; null without a cgroup or where unreadable. */
    private final ProcFile cpuStat;
    /** The cgroup's periods, throttlings and throttled ns as last read. */
    private final long[] throttling = new long[3];

    /** @param cgroup the process's CPU cgroup, or null for none */
    OsCpu(final CpuCgroup cgroup) {
        this.cpuStat = cgroup == null ? null : ProcFile.open(cgroup.cpuStat());
        this.quotaFiles = cgroup == null ? null : cgroup.openQuota();
    }

    void sample(final long epochNanos) {
        // a figure that cannot be read keeps the last one: a zero would make the next difference the total since boot
        final Sample previous = samples.peekLast();
        final boolean read = cpuStat != null && cpuStat.read() && cpuStat.throttling(throttling, 0);
        final long periods = read ? throttling[0] : previous == null ? 0 : previous.periods();
        final long throttlings = read ? throttling[1] : previous == null ? 0 : previous.throttlings();
        final long throttled = read ? throttling[2] : previous == null ? 0 : previous.throttledNanos();
        // "cpu" and then user, nice, system, idle, iowait, irq, softirq and steal
        final long steal = procStat != null && procStat.read() ? procStat.field(CPU.length(), 7)
            : previous == null ? 0 : previous.stealTicks();
        if (quotaFiles != null && sampled++ % QUOTA_EVERY == 0) {
            quotaRead |= quotaFiles.read(quota);
        }
        final Sample sample = new Sample(epochNanos, steal, periods, throttlings, throttled);
        if (first == null) {
            first = sample;
        }
        samples.addLast(sample);
        while (samples.size() > KEEP) {
            samples.removeFirst();
        }
    }

    /**
     * The steal time across [start, end], or 0 when it could not explain half of the stall: the
     * samples are 200 ms apart and steal is counted in 10 ms ticks, so a little steal around a
     * long stall is no evidence for it.
     */
    long stealAcross(final long startNanos, final long endNanos) {
        final Sample[] around = around(startNanos, endNanos);
        if (around == null) {
            return 0;
        }
        final long steal = (around[1].stealTicks() - around[0].stealTicks()) * TICK_NANOS;
        return steal > 0 && steal * 2 >= endNanos - startNanos ? steal : 0;
    }

    /**
     * The cgroup's throttled time across the samples around [start, end], summed over its CPUs
     * as the kernel counts it; 0 where it was not throttled then, or for less than half the stall.
     */
    long throttledAcross(final long startNanos, final long endNanos) {
        final Sample[] around = around(startNanos, endNanos);
        if (around == null || around[1].throttlings() == around[0].throttlings()) {
            return 0;
        }
        final long throttled = around[1].throttledNanos() - around[0].throttledNanos();
        return throttled * 2 >= endNanos - startNanos ? throttled : 0;
    }

    /** The cgroup's throttling from the first sample to the last; null without a cgroup, a quota's figures or two samples. */
    CgroupThrottling throttling() {
        final Sample last = samples.peekLast();
        if (!quotaRead || first == null || last == first) {
            return null;
        }
        return new CgroupThrottling(quota[0], quota[1], last.periods() - first.periods(), last.throttlings() - first.throttlings(),
            last.throttledNanos() - first.throttledNanos());
    }

    /** The last sample at or before start and the first at or after end; null until both exist. */
    private Sample[] around(final long startNanos, final long endNanos) {
        Sample before = null;
        Sample after = null;
        for (final Sample s : samples) {
            if (s.epochNanos() <= startNanos) {
                before = s;
            }
            if (s.epochNanos() >= endNanos && after == null) {
                after = s;
            }
        }
        return before == null || after == null ? null : new Sample[] {before, after};
    }

    /** Closes the files; the attributing thread, as it ends. Later samples keep the last figures. */
    void close() {
        if (procStat != null) {
            procStat.close();
        }
        if (cpuStat != null) {
            cpuStat.close();
        }
        if (quotaFiles != null) {
            quotaFiles.close();
        }
    }
}
