package io.mech.it.hosts;

import java.util.ArrayList;
import java.util.List;

/**
 * A host at its heap limit: it fills its heap, from main's first line or after a given time, and
 * keeps it full for a while, catching every {@code OutOfMemoryError} and allocating again, as a
 * server that sheds requests under memory pressure does; then it lets go of it all and lives on,
 * idle, so that what recovers after the pressure can be seen.
 */
public final class FullHeapHost {

    /** What the host prints once it has let go of its heap, followed by the epoch millisecond. */
    public static final String RELIEVED = "relieved at ";

    /** Chunks small enough that the last of the heap fills too. */
    private static final int CHUNK = 1 << 10;

    private FullHeapHost() {
    }

    /**
     * Runs the host.
     *
     * @param args milliseconds before the pressure, milliseconds of pressure, milliseconds to live on after it
     * @throws InterruptedException never: nothing interrupts the main thread
     */
    public static void main(final String[] args) throws InterruptedException {
        final long before = Long.parseLong(args[0]);
        final long pressure = Long.parseLong(args[1]);
        final long after = Long.parseLong(args[2]);
        if (before > 0) {
            Thread.sleep(before);
        }
        List<long[]> held = new ArrayList<>();
        long errors = 0;
        final long until = System.nanoTime() + pressure * 1_000_000L;
        while (System.nanoTime() < until) {
            try {
                held.add(new long[CHUNK]);
            } catch (final OutOfMemoryError full) {
                errors++;
                // shed a little and try again, as a server under pressure does
                for (int i = 0; i < 4 && !held.isEmpty(); i++) {
                    held.remove(held.size() - 1);
                }
                Thread.sleep(1);
            }
        }
        final int size = held.size();
        held = null;
        System.gc();
        System.out.println("held " + size + " chunks, " + errors + " out-of-memory errors");
        System.out.println(RELIEVED + System.currentTimeMillis());
        System.out.flush();
        Thread.sleep(after);
        System.out.println("host done");
    }
}
