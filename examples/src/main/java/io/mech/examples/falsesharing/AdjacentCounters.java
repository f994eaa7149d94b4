package io.mech.examples.falsesharing;

/** Holds the first writer's counter, first of the object's fields. */
abstract class AdjacentCountersFirst {
    volatile long first;
}

/** Seven longs: with the counter before them, {@code second} lands 64 bytes after {@code first}. */
abstract class AdjacentCountersPad extends AdjacentCountersFirst {
    long p0, p1, p2, p3, p4, p5, p6;
}

/** Holds the second writer's counter. */
abstract class AdjacentCountersSecond extends AdjacentCountersPad {
    volatile long second;
}

/**
 * The two counters 64 bytes apart: never on one line, but on the two lines of one 128-byte
 * pair when the object starts on a 128-byte boundary ({@code -XX:ObjectAlignmentInBytes=128}),
 * which is what the adjacent-line prefetcher pulls together. Measured beside {@link SharedCounters}
 * (one line) and {@link PaddedCounters} (128 bytes apart), it tells what the second line of a
 * pair costs on this machine.
 */
public final class AdjacentCounters extends AdjacentCountersSecond implements CounterPair {

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
