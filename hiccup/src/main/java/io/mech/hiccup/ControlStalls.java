package io.mech.hiccup;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The control JVM's stalls as it reports them, one line each on its stdout
 * ({@code stall <end epoch ns> <length ns>}), kept for a minute so that a host stall can be
 * checked against them: when both JVMs stood still at once, the whole host did.
 *
 * <p>Thread-safe: a reader thread adds, any thread asks.
 */
public final class ControlStalls {

    private static final long KEEP_NANOS = 60_000_000_000L;

    private final Deque<long[]> stalls = new ArrayDeque<>();

    /** Reads the control JVM's lines until its stdout closes, on a daemon thread. */
    void follow(final InputStream controlOut) {
        final Thread reader = new Thread(new Runnable() {
            @Override
            public void run() {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(controlOut, StandardCharsets.US_ASCII))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        final String[] fields = line.split(" ");
                        if (fields.length == 3 && fields[0].equals("stall")) {
                            add(Long.parseLong(fields[1]), Long.parseLong(fields[2]));
                        }
                    }
                } catch (final IOException | NumberFormatException ignored) {
                    // The control JVM has gone or garbled its line: no more control stalls to compare with.
                }
            }
        }, "mech-control-stalls");
        reader.setDaemon(true);
        reader.start();
    }

    synchronized void add(final long endNanos, final long lengthNanos) {
        stalls.addLast(new long[] {endNanos - lengthNanos, endNanos});
        while (!stalls.isEmpty() && stalls.peekFirst()[1] < endNanos - KEEP_NANOS) {
            stalls.removeFirst();
        }
    }

    /** Whether the control JVM stalled for at least half of [start, end] too. */
    public synchronized boolean stalledDuring(final long startNanos, final long endNanos) {
        for (final long[] stall : stalls) {
            final long overlap = Math.min(endNanos, stall[1]) - Math.max(startNanos, stall[0]);
            if (overlap > 0 && 2 * overlap >= endNanos - startNanos) {
                return true;
            }
        }
        return false;
    }
}
