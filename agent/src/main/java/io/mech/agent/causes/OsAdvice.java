package io.mech.agent.causes;

import io.mech.hiccup.cause.Cause;
import io.mech.hiccup.cause.CauseTotals;
import io.mech.hiccup.cause.CgroupThrottling;
import io.mech.report.Columns;
import java.util.ArrayList;
import java.util.List;

/**
 * What to do about each cause outside the JVM the host stalled for: one line per cause that
 * stalled it, under the report's tables, with the figures it comes from.
 */
final class OsAdvice {

    private OsAdvice() {
    }

    /**
     * @param totals     the causes so far
     * @param throttling the cgroup's throttling while mech ran; null where it cannot be read
     */
    static List<String> lines(final CauseTotals totals, final CgroupThrottling throttling) {
        final List<String> lines = new ArrayList<>(5);
        if (totals.count(Cause.THROTTLED) > 0) {
            lines.add(stalled(totals, Cause.THROTTLED, "the process's CPU cgroup had spent its quota") + throttled(throttling)
                + ": raise the CPU limit, or run fewer threads at once (GC and JIT threads count: -XX:ParallelGCThreads, "
                + "-XX:CICompilerCount, -XX:ActiveProcessorCount)");
        }
        if (totals.count(Cause.RUNQUEUE) > 0) {
            final int cores = Runtime.getRuntime().availableProcessors();
            lines.add(stalled(totals, Cause.RUNQUEUE, "the meter was runnable and waited for " + (cores == 1 ? "the JVM's one core"
                : "one of the JVM's " + cores + " cores")) + ": more threads were busy than there are cores, the host's or other "
                + "processes'; run fewer busy threads, or give it more cores");
        }
        if (totals.count(Cause.STEAL) > 0) {
            lines.add(stalled(totals, Cause.STEAL, "the hypervisor ran other guests on this machine's CPUs (steal time)")
                + ": move the instance, or its neighbours, or take a type without shared cores");
        }
        if (totals.count(Cause.PAGING) > 0) {
            lines.add(stalled(totals, Cause.PAGING, "the meter's thread waited for memory read back from disk (major faults)")
                + ": leave the process room within its memory limit, turn swap off for it, or touch the heap at start "
                + "(-XX:+AlwaysPreTouch)");
        }
        if (totals.count(Cause.FROZEN) > 0) {
            lines.add(stalled(totals, Cause.FROZEN, "nothing in the process ran")
                + ": a SIGSTOP (a debugger, a shell's job control, a checkpointer) or a cgroup freezer stopped it; where the "
                + "control JVM stalled too (hiccup.control), the whole machine or VM was paused");
        }
        return lines;
    }

    /** "runqueue: 12 stalls, 340.500 ms in all, longest 40.000 ms: the meter ..." */
    private static String stalled(final CauseTotals totals, final Cause cause, final String why) {
        final long count = totals.count(cause);
        return cause.tag() + ": " + count + (count == 1 ? " stall, " : " stalls, ") + Columns.fixed(totals.nanos(cause) / 1e6, 3)
            + " ms in all, longest " + Columns.fixed(totals.longest(cause) / 1e6, 3) + " ms: " + why;
    }

    /** " (quota 50.0 ms every 100.0 ms, 0.50 CPUs; throttled in 77 of 142 periods, 54%, 11.133 s over its CPUs)" */
    private static String throttled(final CgroupThrottling t) {
        if (t == null || t.quotaMicros() < 0) {
            return "";
        }
        return " (quota " + Columns.fixed(t.quotaMicros() / 1e3, 1) + " ms every " + Columns.fixed(t.periodMicros() / 1e3, 1) + " ms, "
            + Columns.fixed((double) t.quotaMicros() / t.periodMicros(), 2) + " CPUs; throttled in " + t.throttledPeriods() + " of "
            + t.periods() + " periods, " + Columns.fixed(t.periods() == 0 ? 0.0 : 100.0 * t.throttledPeriods() / t.periods(), 0) + "%, "
            + Columns.fixed(t.throttledNanos() / 1e9, 3) + " s over its CPUs)";
    }
}
