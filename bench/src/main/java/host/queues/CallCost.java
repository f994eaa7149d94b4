package host.queues;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;

/**
 * What the queue probe adds to one counted offer or poll, measured inside one JVM so that no
 * JVM-to-JVM noise enters it: the woven {@link host.queues.woven.Ring} against a byte-for-byte
 * copy of it defined under another package, which the probe leaves alone, in alternating rounds.
 * Started with the probe including {@code host.queues.woven}; with the probe off it is the
 * control, and the difference must come out about zero.
 *
 * <p>This package lies outside {@code io.mech}, so the probe takes its frames for the
 * application's and names (and counts) the ring it creates.
 */
public final class CallCost {

    private static final String WOVEN = "host/queues/woven/";
    /** The same length as {@link #WOVEN}, so renaming changes no offset in the class file. */
    private static final String PLAIN = "host/queues/plain/";
    private static final int WARM_UP = 5;
    private static final int ROUNDS = 21;
    private static final long EXCHANGES = 5_000_000;
    private static final int CALLS_PER_EXCHANGE = 4;

    private CallCost() {
    }

    /**
     * Prints {@code woven_ns_per_call}, {@code plain_ns_per_call} and their median difference
     * round by round, {@code added_ns_per_call}.
     *
     * @param args ignored
     */
    public static void main(final String[] args) throws Throwable {
        final Class<?> woven = host.queues.woven.Ring.class;
        final Class<?> plain = new Twin(CallCost.class.getClassLoader()).define(renamed(woven));
        final Object wovenRing = woven.getConstructor().newInstance();
        final Object plainRing = plain.getConstructor().newInstance();
        final MethodHandle wovenExchange = exchange(woven);
        final MethodHandle plainExchange = exchange(plain);
        final Object item = new Object();
        final double[] wovenNanos = new double[ROUNDS];
        final double[] plainNanos = new double[ROUNDS];
        final double[] added = new double[ROUNDS];
        long polled = 0;
        for (int round = -WARM_UP; round < ROUNDS; round++) {
            final long start = System.nanoTime();
            polled += (long) wovenExchange.invokeExact(wovenRing, EXCHANGES, item);
            final long between = System.nanoTime();
            polled += (long) plainExchange.invokeExact(plainRing, EXCHANGES, item);
            final long end = System.nanoTime();
            if (round >= 0) {
                wovenNanos[round] = (between - start) / (double) (EXCHANGES * CALLS_PER_EXCHANGE);
                plainNanos[round] = (end - between) / (double) (EXCHANGES * CALLS_PER_EXCHANGE);
                added[round] = wovenNanos[round] - plainNanos[round];
            }
        }
        if (polled != 2 * EXCHANGES * (WARM_UP + ROUNDS) * 2) {
            throw new IllegalStateException("the rings lost items: " + polled);
        }
        System.out.printf("woven_ns_per_call=%.4f plain_ns_per_call=%.4f added_ns_per_call=%.4f%n",
            median(wovenNanos), median(plainNanos), median(added));
    }

    private static MethodHandle exchange(final Class<?> ring) throws ReflectiveOperationException {
        return MethodHandles.publicLookup().findStatic(ring, "exchange",
            MethodType.methodType(long.class, Object.class, long.class, Object.class));
    }

    private static byte[] renamed(final Class<?> type) throws IOException {
        final byte[] bytes;
        try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            bytes = in.readAllBytes();
        }
        final byte[] from = WOVEN.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        final byte[] to = PLAIN.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (int i = 0; i + from.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + from.length, from, 0, from.length)) {
                System.arraycopy(to, 0, bytes, i, to.length);
            }
        }
        return bytes;
    }

    private static double median(final double[] samples) {
        final double[] sorted = samples.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** Defines the renamed copy beside the original. */
    private static final class Twin extends ClassLoader {
        Twin(final ClassLoader parent) {
            super(parent);
        }

        Class<?> define(final byte[] classFile) {
            return defineClass(null, classFile, 0, classFile.length);
        }
    }
}
