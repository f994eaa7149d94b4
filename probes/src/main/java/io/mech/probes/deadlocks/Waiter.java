package io.mech.probes.deadlocks;

/**
 * One thread of a deadlock: what it waits for, who holds that, and where it waits.
 *
 * @param thread the waiting thread's name
 * @param lock   the lock it waits for, as the JVM names it ({@code class@identity})
 * @param owner  the name of the thread that holds the lock
 * @param at     the frame it waits in ({@code class.method:line}); empty when the JVM gave none
 */
public record Waiter(String thread, String lock, String owner, String at) {
}
