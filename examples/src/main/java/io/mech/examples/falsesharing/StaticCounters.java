package io.mech.examples.falsesharing;

/**
 * The defect with statics: static fields live side by side in the class's {@code java.lang.Class}
 * mirror, which no annotation or subclass can pad. Only one instance may be in use at a time.
 */
public final class StaticCounters implements CounterPair {
    static volatile long first;
    static volatile long second;

    /** Zeroes both statics: they outlive any one run. */
    public StaticCounters() {
        first = 0;
        second = 0;
    }

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
