package io.mech.examples.falsesharing;

/**
 * Two counters, each written by exactly one thread; implementations differ only in where the
 * counters live in memory. Each implementation holds its own loops so that a JIT-compiled loop
 * never dispatches between layouts.
 */
public interface CounterPair {

    /**
     * Increments the first counter {@code times} times, one volatile write each.
     *
     * @param times how many increments
     */
    void runFirst(int times);

    /**
     * Increments the second counter {@code times} times, one volatile write each.
     *
     * @param times how many increments
     */
    void runSecond(int times);

    /** @return the first counter's total */
    long first();

    /** @return the second counter's total */
    long second();
}
