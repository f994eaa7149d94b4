package app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A host outside mech's packages with two pairs of threads, one on monitors and one on
 * {@code ReentrantLock}s, each thread taking the pair's two locks one inside the other. With
 * {@code inverted}, the second thread of each pair takes them in the opposite order, and both
 * pairs deadlock for good once each thread holds its first lock; with {@code ordered}, both take
 * them in one order, a thousand times, and end. The threads are daemons, so the host still ends.
 * It writes mech's /metrics address to a file once mech publishes it and lives until a second
 * file appears, never longer than two minutes.
 */
public final class DeadlockHost {

    private static final long LIFE_NANOS = TimeUnit.MINUTES.toNanos(2);

    private DeadlockHost() {
    }

    /** @param args {@code inverted} or {@code ordered}, the address file, the file whose appearance ends the host */
    public static void main(final String[] args) throws Exception {
        final long end = System.nanoTime() + LIFE_NANOS;
        final boolean inverted = args[0].equals("inverted");
        final Object left = new Object();
        final Object right = new Object();
        final CountDownLatch monitorsHeld = new CountDownLatch(2);
        start("monitor-first", () -> monitors(left, right, inverted ? monitorsHeld : null));
        start("monitor-second", () -> monitors(inverted ? right : left, inverted ? left : right, inverted ? monitorsHeld : null));
        final ReentrantLock up = new ReentrantLock();
        final ReentrantLock down = new ReentrantLock();
        final CountDownLatch locksHeld = new CountDownLatch(2);
        start("lock-first", () -> locks(up, down, inverted ? locksHeld : null));
        start("lock-second", () -> locks(inverted ? down : up, inverted ? up : down, inverted ? locksHeld : null));
        String metrics;
        while ((metrics = System.getProperty("io.mech.metrics")) == null) {
            exitAfter(end, 2);
            Thread.sleep(10);
        }
        final Path written = Path.of(args[1] + ".part");
        Files.writeString(written, metrics);
        Files.move(written, Path.of(args[1]), StandardCopyOption.ATOMIC_MOVE);
        while (!Files.exists(Path.of(args[2]))) {
            exitAfter(end, 3);
            Thread.sleep(10);
        }
    }

    private static void monitors(final Object first, final Object second, final CountDownLatch bothHoldTheirFirst) {
        for (int i = 0; i < (bothHoldTheirFirst == null ? 1_000 : 1); i++) {
            synchronized (first) {
                awaitBoth(bothHoldTheirFirst);
                synchronized (second) {
                    Thread.onSpinWait();
                }
            }
        }
    }

    private static void locks(final ReentrantLock first, final ReentrantLock second, final CountDownLatch bothHoldTheirFirst) {
        for (int i = 0; i < (bothHoldTheirFirst == null ? 1_000 : 1); i++) {
            first.lock();
            try {
                awaitBoth(bothHoldTheirFirst);
                second.lock();
                second.unlock();
            } finally {
                first.unlock();
            }
        }
    }

    private static void awaitBoth(final CountDownLatch latch) {
        if (latch == null) {
            return;
        }
        latch.countDown();
        try {
            latch.await();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void start(final String name, final Runnable body) {
        final Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
    }

    private static void exitAfter(final long end, final int status) {
        if (System.nanoTime() > end) {
            System.exit(status);
        }
    }
}
