package io.mech.examples.truesharing;

/** Keeps the counts off the line of whatever sits just before the counter. */
abstract class LocalPollCounterLeftPad {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The counts, written by one thread only. */
abstract class LocalPollCounterCounts extends LocalPollCounterLeftPad {
    long count;
    long polls;
}

/** Keeps the counts off the line of whatever sits just after the counter. */
abstract class LocalPollCounterRightPad extends LocalPollCounterCounts {
    long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
}

/**
 * The fix: each thread counts its own calls and polls every 256 of them; totals are combined
 * once at the end. Allocated by its thread and touched by no other until the thread is done,
 * and padded as the JDK pads LongAdder's cells: a young collection copies the threads' counters
 * into one survivor space, where the probe saw two unpadded ones share a line.
 */
public final class LocalPollCounter extends LocalPollCounterRightPad {

    /**
     * Counts one call.
     *
     * @return whether this call is due to poll
     */
    public boolean tick() {
        final long next = ++count;
        return (next & 0xFF) == 0;
    }

    /** @param times calls to count, polling as the global counter would */
    public void run(final int times) {
        for (int i = 0; i < times; i++) {
            if (tick()) {
                polls++;
            }
        }
    }

    /** @return calls counted */
    public long count() {
        return count;
    }

    /** @return polls triggered */
    public long polls() {
        return polls;
    }
}
