package io.mech.hiccup.cause;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * What the operating system did to this process's CPU time: the machine's steal time from
 * {@code /proc/stat} (a hypervisor running someone else) and the cgroup's CPU throttling from
 * {@code cpu.stat} (a container over its quota), sampled about once a second so that a stall
 * can be set against the change across it. Where a file is missing its figure stays zero.
 */
final class OsCpu {

    /** One reading. */
    record Sample(long epochNanos, long stealTicks, long throttledCount, long throttledMicros) {
    }

    private static final Path PROC_STAT = Path.of("/proc/stat");
    private static final List<Path> CGROUP_CPU_STAT = List.of(
        Path.of("/sys/fs/cgroup/cpu.stat"), Path.of("/sys/fs/cgroup/cpu,cpuacct/cpu.stat"), Path.of("/sys/fs/cgroup/cpu/cpu.stat"));
    private static final int KEEP = 120;
    /** USER_HZ on Linux, the unit of /proc/stat. */
    private static final long TICK_MICROS = 10_000;

    private final Deque<Sample> samples = new ArrayDeque<>();

    void sample(final long epochNanos) {
        long steal = 0;
        long count = 0;
        long micros = 0;
        try {
            final String cpu = Files.readAllLines(PROC_STAT).get(0);
            final String[] fields = cpu.trim().split("\\s+");
            if (fields.length > 8) {
                steal = Long.parseLong(fields[8]);
            }
        } catch (final IOException | RuntimeException ignored) {
            // Not Linux, or an unexpected format: no steal figure.
        }
        for (final Path stat : CGROUP_CPU_STAT) {
            if (Files.isReadable(stat)) {
                try {
                    for (final String line : Files.readAllLines(stat)) {
                        final String[] kv = line.split(" ");
                        if (kv[0].equals("nr_throttled")) {
                            count = Long.parseLong(kv[1]);
                        } else if (kv[0].equals("throttled_usec")) {
                            micros = Long.parseLong(kv[1]);
                        } else if (kv[0].equals("throttled_time")) {
                            micros = Long.parseLong(kv[1]) / 1_000;
                        }
                    }
                } catch (final IOException | RuntimeException ignored) {
                    // An unreadable cgroup file says nothing about throttling.
                }
                break;
            }
        }
        samples.addLast(new Sample(epochNanos, steal, count, micros));
        while (samples.size() > KEEP) {
            samples.removeFirst();
        }
    }

    /**
     * What the OS did across [start, end], as a phrase for a person, or empty when nothing shows.
     * The samples are a second apart, so a figure counts only when it could explain at least half
     * of the stall: 20 ms of steal in the second around a 170 ms stall is no evidence for it.
     */
    String across(final long startNanos, final long endNanos) {
        final long halfMicros = (endNanos - startNanos) / 2_000;
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
        if (before == null || after == null) {
            return "";
        }
        final StringBuilder found = new StringBuilder();
        final long stealMicros = (after.stealTicks() - before.stealTicks()) * TICK_MICROS;
        if (stealMicros > 0 && stealMicros >= halfMicros) {
            found.append("steal time ").append(stealMicros / 1000).append(" ms");
        }
        final long throttled = after.throttledCount() - before.throttledCount();
        if (throttled > 0 && after.throttledMicros() - before.throttledMicros() >= halfMicros) {
            found.append(found.length() == 0 ? "" : ", ").append("cgroup CPU throttled ").append(throttled).append(" times (")
                .append((after.throttledMicros() - before.throttledMicros()) / 1000).append(" ms)");
        }
        return found.toString();
    }
}
