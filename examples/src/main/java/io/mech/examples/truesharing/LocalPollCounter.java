package io.mech.examples.truesharing;

/**
 * The fix: each thread counts its own calls and polls every 256 of them; totals are combined
 * once at the end. Allocated by its thread and touched by no other until the thread is done.
 */
public final class LocalPollCounter {
    private long count;
    private long polls;

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
