package io.mech.examples.lazyset;

/**
 * Two flags, each written by one thread with a release store (lazySet) and read by the other
 * with an acquire load.
 */
public interface FlagPair {

    /** @param value the ping thread's new value */
    void setPing(long value);

    /** @return the ping thread's last value */
    long ping();

    /** @param value the pong thread's new value */
    void setPong(long value);

    /** @return the pong thread's last value */
    long pong();
}
