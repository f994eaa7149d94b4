package io.mech.examples.falsesharing;

/**
 * The fix by separate objects: each counter is an object of its own, allocated by its writer
 * thread on first use, and padded ({@link Counter}), for placement alone does not last: a
 * young collection may copy the two next to each other.
 */
public final class SeparateCounters implements CounterPair {
    private volatile Counter first;
    private volatile Counter second;

    @Override
    public void runFirst(final int times) {
        Counter counter = first;
        if (counter == null) {
            counter = new Counter();
            first = counter;
        }
        for (int i = 0; i < times; i++) {
            counter.value++;
        }
    }

    @Override
    public void runSecond(final int times) {
        Counter counter = second;
        if (counter == null) {
            counter = new Counter();
            second = counter;
        }
        for (int i = 0; i < times; i++) {
            counter.value++;
        }
    }

    @Override
    public long first() {
        final Counter counter = first;
        return counter == null ? 0 : counter.value;
    }

    @Override
    public long second() {
        final Counter counter = second;
        return counter == null ? 0 : counter.value;
    }
}
