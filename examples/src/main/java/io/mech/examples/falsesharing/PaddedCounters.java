package io.mech.examples.falsesharing;

/**
 * Keeps {@code first} off the line of whatever the allocator placed just before this object.
 * 128 bytes, not 64, because the adjacent-line prefetcher pulls cache lines in pairs.
 */
abstract class PaddedCountersLeftPad {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** Holds the first writer's counter. */
abstract class PaddedCountersFirst extends PaddedCountersLeftPad {
    volatile long first;
}

/** Keeps {@code first} and {@code second} 128 bytes apart. */
abstract class PaddedCountersMiddlePad extends PaddedCountersFirst {
    long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
}

/** Holds the second writer's counter. */
abstract class PaddedCountersSecond extends PaddedCountersMiddlePad {
    volatile long second;
}

/** Keeps {@code second} off the line of whatever is allocated just after this object. */
abstract class PaddedCountersRightPad extends PaddedCountersSecond {
    long r00, r01, r02, r03, r04, r05, r06, r07, r08, r09, r10, r11, r12, r13, r14, r15;
}

/**
 * The fix by padding: the same two counters as {@link SharedCounters}, separated by a class
 * hierarchy of pads. A hierarchy, because HotSpot lays out a superclass's fields before a
 * subclass's and never reorders across that boundary, while it may reorder fields within one
 * class.
 */
public final class PaddedCounters extends PaddedCountersRightPad implements CounterPair {

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
