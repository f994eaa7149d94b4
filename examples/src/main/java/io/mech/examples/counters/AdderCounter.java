package io.mech.examples.counters;

import java.util.concurrent.atomic.LongAdder;

/** LongAdder: contended threads move to their own padded cells; reading sums the cells. */
public final class AdderCounter implements SharedCounter {
    private final LongAdder adder = new LongAdder();

    @Override
    public void increment(final int times) {
        for (int i = 0; i < times; i++) {
            adder.increment();
        }
    }

    @Override
    public long sum() {
        return adder.sum();
    }
}
