package io.mech.examples.falsesharing;

/** The defect: two hot fields of one small object, so they share a cache line. */
public final class SharedCounters implements CounterPair {
    volatile long first;
    volatile long second;

    @Override
    public void runFirst(final int times) {
        for (int i = 0; i < times; i++) {
            first++;
        }
    }

    @Override
    public void runSecond(final int times) {
        for (int i = 0; i < times; i++) {
            second++;
        }
    }

    @Override
    public long first() {
        return first;
    }

    @Override
    public long second() {
        return second;
    }
}
