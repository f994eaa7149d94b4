package corpus.shapes;

import corpus.Workers;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The shapes of issue 23 that mech missed or misranked, each beside its fixed twin, as worker
 * loops that start in {@code main} and never return until the false-sharing window is over:
 * two volatile counters of one object and their padded twin, AtomicLongArray slots 0 and 1 and
 * slots 0 and 16, a JMH-style state and its twin padded with 16 ints.
 */
public final class ShapesHost {

    /** Keeps the shared objects apart: allocated back to back they would share lines with each other. */
    private static final List<long[]> SPACERS = new ArrayList<>();

    private ShapesHost() {
    }

    /**
     * Runs every shape until the window is over.
     *
     * @param args none
     */
    public static void main(final String[] args) throws InterruptedException {
        final LoopPair loop = apart(new LoopPair());
        final PaddedLoopPair padded = apart(new PaddedLoopPair());
        final AtomicLongArray adjacentSlots = apart(new AtomicLongArray(32));
        final AtomicLongArray stridedSlots = apart(new AtomicLongArray(32));
        final JmhState state = apart(new JmhState());
        final PaddedJmhState paddedState = apart(new PaddedJmhState());
        // one writer of each side for the loop shapes, so that few threads share the machine's cores and each is
        // running in every counting burst; the JMH-style states get their own threads, so each runs at its own speed
        final Workers workers = new Workers()
            .start("first-writer", () -> {
                while (Workers.running()) {
                    loop.first++;
                    padded.first++;
                    adjacentSlots.incrementAndGet(0);
                    stridedSlots.incrementAndGet(0);
                }
            })
            .start("second-writer", () -> {
                while (Workers.running()) {
                    loop.second++;
                    padded.second++;
                    adjacentSlots.incrementAndGet(1);
                    stridedSlots.incrementAndGet(16);
                }
            })
            .start("state-first", () -> {
                while (Workers.running()) {
                    state.first++;
                }
            })
            .start("state-second", () -> {
                while (Workers.running()) {
                    state.second++;
                }
            })
            .start("padded-state-first", () -> {
                while (Workers.running()) {
                    paddedState.first++;
                }
            })
            .start("padded-state-second", () -> {
                while (Workers.running()) {
                    paddedState.second++;
                }
            });
        System.exit(workers.awaitWindowThenStop());
    }

    private static <T> T apart(final T shared) {
        SPACERS.add(new long[32]);
        return shared;
    }
}
