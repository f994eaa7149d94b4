package corpus.jdk;

import corpus.Workers;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Exchanger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The JDK's answers to contention, each used as its authors intend by two threads: a LongAdder
 * both increment and a ConcurrentHashMap both update (keys of their own), in one loop each, and an
 * Exchanger both swap through. The probe never weaves the JDK's own classes; what this shows is
 * that the code around them, this class's, is not accused.
 */
public final class JdkDrivers {

    private static final Integer[] KEYS = new Integer[64];

    static {
        for (int i = 0; i < KEYS.length; i++) {
            KEYS[i] = i;
        }
    }

    private JdkDrivers() {
    }

    /** Starts the workers of every driver. */
    public static void start(final Workers workers) {
        final LongAdder adder = new LongAdder();
        final ConcurrentHashMap<Integer, Integer> map = new ConcurrentHashMap<>();
        for (int half = 0; half < 2; half++) {
            final int offset = half * KEYS.length / 2;
            workers.start("jdk-adder-and-map-" + half, () -> {
                int i = 0;
                while (Workers.running()) {
                    adder.increment();
                    map.merge(KEYS[offset + (i++ & 31)], 1, Integer::sum);
                }
            });
        }
        final Exchanger<Integer> exchanger = new Exchanger<>();
        for (int side = 0; side < 2; side++) {
            final Integer mine = KEYS[side];
            workers.start("jdk-exchanger-" + side, () -> {
                while (Workers.running()) {
                    try {
                        exchanger.exchange(mine, 10, java.util.concurrent.TimeUnit.MILLISECONDS);
                    } catch (final InterruptedException e) {
                        return;
                    } catch (final java.util.concurrent.TimeoutException e) {
                        // the other side stopped first: look at running again
                    }
                }
            });
        }
    }
}
