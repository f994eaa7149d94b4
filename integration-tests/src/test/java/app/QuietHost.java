package app;

import java.lang.ref.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A host application with no lock of its own, outside mech's packages. It makes one queue (for
 * the queue probe, when on, to find: the application's only one), waits until mech runs every
 * part (the threads that start them, {@code mech-start} and the lock probe's
 * {@code mech-locks-install}, have ended), writes the /metrics address mech publishes to a file,
 * and lives until a second file appears; never longer than two minutes. It prints nothing: a
 * print takes the stream's lock.
 */
public final class QuietHost {

    private static final long LIFE_NANOS = TimeUnit.MINUTES.toNanos(2);
    private static final Set<String> STARTING = Set.of("mech-start", "mech-locks-install");

    private QuietHost() {
    }

    /**
     * @param args the file to write mech's /metrics address to, the file whose appearance ends the host
     */
    public static void main(final String[] args) throws Exception {
        final long end = System.nanoTime() + LIFE_NANOS;
        final ArrayBlockingQueue<Integer> own = new ArrayBlockingQueue<>(16);
        own.offer(1);
        String metrics;
        while ((metrics = System.getProperty("io.mech.metrics")) == null || mechStarting()) {
            exitAfter(end, 2);
            Thread.sleep(10);
        }
        final Path address = Path.of(args[0]);
        final Path written = Path.of(args[0] + ".part");
        Files.writeString(written, metrics);
        Files.move(written, address, StandardCopyOption.ATOMIC_MOVE);
        while (!Files.exists(Path.of(args[1]))) {
            exitAfter(end, 3);
            Thread.sleep(10);
        }
        // the queue stays live to the end, so the report lists it rather than its last figures
        Reference.reachabilityFence(own);
    }

    /**
     * Listed by the JVM at a safepoint: enumerating a thread group instead would lock it, against
     * the threads mech starts meanwhile.
     */
    private static boolean mechStarting() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(thread -> STARTING.contains(thread.getName()));
    }

    private static void exitAfter(final long end, final int status) {
        if (System.nanoTime() > end) {
            System.exit(status);
        }
    }
}
