package corpus.control;

import corpus.Workers;

/**
 * The positive control of a host whose other code must be silent: two worker loops on two
 * volatile counters of one object, which the window must flag, so that silence elsewhere in the
 * same window means the probe counted and found nothing, not that it never counted. Bytes side by
 * side in one 8-byte word share a line wherever the object starts.
 */
public final class ControlPair {
    volatile byte first;
    volatile byte second;

    /** Starts the two workers. */
    public static void start(final Workers workers) {
        final ControlPair pair = new ControlPair();
        workers.start("control-first", () -> {
            while (Workers.running()) {
                pair.first++;
            }
        }).start("control-second", () -> {
            while (Workers.running()) {
                pair.second++;
            }
        });
    }
}
