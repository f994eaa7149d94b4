/**
 * Why the JVM stalled: each stall the hiccup meter saw is matched, by overlap in time, against
 * the GC pauses and safepoint operations JFR reports, and what nothing in the JVM explains is
 * put down to the operating system or the hypervisor.
 *
 * <p>Entry point: {@link io.mech.hiccup.cause.HiccupCauses}.
 */
package io.mech.hiccup.cause;
