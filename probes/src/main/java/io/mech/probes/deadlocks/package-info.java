/**
 * The deadlock probe: threads that wait for each other's monitors or {@code java.util.concurrent}
 * locks in a cycle, found the JVM's own way ({@code ThreadMXBean.findDeadlockedThreads}) on one of
 * mech's threads, and handed out as an immutable {@link io.mech.probes.deadlocks.DeadlockSnapshot}.
 */
package io.mech.probes.deadlocks;
