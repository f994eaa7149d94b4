/**
 * The allocation probe: how fast the JVM allocates and which of the host's threads allocate most,
 * from HotSpot's per-thread allocation counters ({@code com.sun.management.ThreadMXBean}), read on
 * one of mech's threads and handed out as an immutable
 * {@link io.mech.probes.allocation.AllocationSnapshot}.
 */
package io.mech.probes.allocation;
