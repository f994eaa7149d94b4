package io.mech.examples.ipc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * The second process of the ipc kernel: maps the file the kernel's process made and either takes
 * a stream of sequence numbers off the ring to it ({@code consume}) or sends each value straight
 * back on the other ring ({@code echo}), until the end marker. Its one thread runs the loop; it
 * leaves its counts in the file and exits.
 */
public final class IpcPeer {

    /** Ends a run; real values are sequence numbers from 0. */
    static final long END = -1;
    /** Empty polls a consumer spins through before it parks: it yields the core when there is no work. */
    private static final int SPINS = 100;
    private static final long IDLE_PARK_NANOS = 50_000;
    /** Idle rounds between two looks at whether the kernel's process still lives (a power of two). */
    private static final long ORPHAN_CHECK = 1 << 16;

    private IpcPeer() {
    }

    /**
     * @param args the mapped file, {@code consume} or {@code echo}, and the rings' capacity
     * @throws IOException when the file cannot be mapped
     */
    public static void main(final String[] args) throws IOException {
        final SharedFile file = SharedFile.map(Path.of(args[0]), Integer.parseInt(args[2]));
        final ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
        file.state(SharedFile.READY);
        if (args[1].equals("echo")) {
            echo(file, parent);
        } else {
            consume(file, parent);
        }
    }

    /** Whether the kernel's process is gone (killed before it sent the end marker): then nobody will. */
    private static boolean orphaned(final long idleRounds, final ProcessHandle parent) {
        return (idleRounds & (ORPHAN_CHECK - 1)) == 0 && parent != null && !parent.isAlive();
    }

    /** Takes values in order until the end marker, parking briefly whenever the ring is empty. */
    private static void consume(final SharedFile file, final ProcessHandle parent) {
        final MappedRing ring = file.toPeer();
        long expected = 0;
        long misordered = 0;
        long idle = 0;
        while (true) {
            final long value = ring.poll();
            if (value == MappedRing.EMPTY) {
                if (++idle > SPINS) {
                    LockSupport.parkNanos(IDLE_PARK_NANOS);
                }
                if (orphaned(idle, parent)) {
                    return;
                }
                continue;
            }
            idle = 0;
            if (value == END) {
                break;
            }
            if (value != expected) {
                misordered++;
            }
            expected = value + 1;
        }
        file.done(expected, misordered);
    }

    /** Sends every value back as it comes, spinning: the round trip is the measurement. */
    private static void echo(final SharedFile file, final ProcessHandle parent) {
        final MappedRing in = file.toPeer();
        final MappedRing out = file.fromPeer();
        long taken = 0;
        long idle = 0;
        while (true) {
            final long value = in.poll();
            if (value == MappedRing.EMPTY) {
                Thread.onSpinWait();
                if (orphaned(++idle, parent)) {
                    return;
                }
                continue;
            }
            idle = 0;
            if (value == END) {
                break;
            }
            while (!out.offer(value)) {
                Thread.onSpinWait();
            }
            taken++;
        }
        file.done(taken, 0);
    }
}
