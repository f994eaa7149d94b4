package io.mech.examples.ipc;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The file two processes map to talk: a control line, then the ring towards the peer and the
 * ring back from it, each of {@code capacity} slots.
 *
 * <pre>
 *   +0     peer state: 0 starting, 1 ready, 2 done
 *   +8     the peer's count of values it took out of order
 *   +16    the peer's count of values it took
 *   +128   ring to the peer, then ring from the peer
 * </pre>
 *
 * <p>The kernel's process creates the file (zeroed) and the peer maps it; the mapping stays valid
 * after the channel closes. Threading: the control words are written by the peer's one thread
 * with release stores and read by any thread of either process with acquire loads.
 */
public final class SharedFile {

    /** The peer is mapping the file. */
    public static final long STARTING = 0;
    /** The peer is polling its ring. */
    public static final long READY = 1;
    /** The peer took the end marker and wrote its counts. */
    public static final long DONE = 2;

    private static final int STATE = 0;
    private static final int MISORDERED = 8;
    private static final int TAKEN = 16;
    private static final int RINGS = 128;
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final MappedByteBuffer memory;
    private final MappedRing toPeer;
    private final MappedRing fromPeer;

    private SharedFile(final MappedByteBuffer memory, final int capacity) {
        this.memory = memory;
        this.toPeer = new MappedRing(memory, RINGS, capacity);
        this.fromPeer = new MappedRing(memory, RINGS + MappedRing.bytes(capacity), capacity);
    }

    /**
     * Maps a file for rings of the given capacity, creating it (zero-filled) when missing.
     *
     * @param path     the file; on Linux, a file under /dev/shm never reaches a disk
     * @param capacity slots per ring, a power of two
     * @return the mapping
     * @throws IOException when the file cannot be created or mapped
     */
    public static SharedFile map(final Path path, final int capacity) throws IOException {
        final long size = RINGS + 2L * MappedRing.bytes(capacity);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE)) {
            return new SharedFile(channel.map(FileChannel.MapMode.READ_WRITE, 0, size), capacity);
        }
    }

    /**
     * A fresh file for one run, in /dev/shm when it exists (memory only), else the temporary directory.
     *
     * @return its path; the caller deletes it
     * @throws IOException when neither place takes a file
     */
    public static Path create() throws IOException {
        final Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempFile(shm, "mech-ipc", ".map")
            : Files.createTempFile("mech-ipc", ".map");
    }

    /** @return the ring from the kernel's process to the peer */
    public MappedRing toPeer() {
        return toPeer;
    }

    /** @return the ring from the peer back to the kernel's process */
    public MappedRing fromPeer() {
        return fromPeer;
    }

    /** @return {@link #STARTING}, {@link #READY} or {@link #DONE} */
    public long state() {
        return (long) LONGS.getAcquire(memory, STATE);
    }

    /** Peer side: says where it is. */
    public void state(final long state) {
        LONGS.setRelease(memory, STATE, state);
    }

    /** Peer side: leaves its counts, then says it is done. */
    public void done(final long taken, final long misordered) {
        LONGS.setRelease(memory, TAKEN, taken);
        LONGS.setRelease(memory, MISORDERED, misordered);
        state(DONE);
    }

    /** @return the values the peer took; final once {@link #state()} is {@link #DONE} */
    public long taken() {
        return (long) LONGS.getAcquire(memory, TAKEN);
    }

    /** @return the values the peer took out of order; final once {@link #state()} is {@link #DONE} */
    public long misordered() {
        return (long) LONGS.getAcquire(memory, MISORDERED);
    }
}
