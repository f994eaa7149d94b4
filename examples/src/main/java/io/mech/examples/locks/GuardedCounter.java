package io.mech.examples.locks;

/** A count guarded by some locking strategy; each increment takes and releases the guard once. */
public interface GuardedCounter {

    /** @param times increments, each under the guard */
    void increment(int times);

    /** @return increments applied so far */
    long count();
}
