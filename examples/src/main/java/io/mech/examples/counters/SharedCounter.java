package io.mech.examples.counters;

/** A counter every thread increments; implementations differ in the instruction that does it. */
public interface SharedCounter {

    /** @param times increments to apply, each one atomic */
    void increment(int times);

    /** @return increments applied so far */
    long sum();
}
