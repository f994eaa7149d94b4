package io.mech.hiccup.cause;

/**
 * How the process's CPU cgroup was throttled while mech ran, from its {@code cpu.stat}, and the
 * quota it was throttled to.
 *
 * @param quotaMicros      CPU time the cgroup may use every period, in microseconds; -1 for no quota
 * @param periodMicros     the period, in microseconds
 * @param periods          the periods that went by with the cgroup's threads runnable
 * @param throttledPeriods those in which it spent its quota and was throttled
 * @param throttledNanos   how long it was throttled, summed over its CPUs as the kernel counts it
 */
public record CgroupThrottling(long quotaMicros, long periodMicros, long periods, long throttledPeriods, long throttledNanos) {
}
