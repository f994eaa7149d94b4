package corpus.servers;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Netty's NIO event loops, one flooded and one that keeps up, as the queue corpus's server case
 * (io.mech.it.ServerQueuesTest). Each loop group is made in a method of its own, so the site of
 * its task queue (Netty's relocated copy of JCTools' MPSC queue, made in the loop's constructor)
 * names the case.
 *
 * <ul>
 *   <li>{@code flooded}: a producer hands the loop tasks of about 50 µs each, far faster than it
 *       runs them, until 150,000 are pending, and holds that backlog for {@code hold} seconds;</li>
 *   <li>{@code keptUp}: a producer hands the other loop one such task every 2 ms.</li>
 * </ul>
 * The truth is Netty's own count, {@code SingleThreadEventExecutor.pendingTasks()}, printed as
 * {@code case=<name> queue=<class> pending_max=<n>} for each, the deepest it was seen at the
 * producer's checks.
 */
public final class NettyLoops {

    private static final int BACKLOG = 150_000;
    private static final long TASK_NANOS = 50_000;

    private NettyLoops() {
    }

    public static void main(final String[] args) throws Exception {
        final long holdNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args[0]));
        final EventLoopGroup floodedGroup = flooded();
        final EventLoopGroup keptUpGroup = keptUp();
        final Producer flood = new Producer((SingleThreadEventExecutor) floodedGroup.next(), holdNanos, 0);
        final Producer steady = new Producer((SingleThreadEventExecutor) keptUpGroup.next(), holdNanos, 2_000_000L);
        flood.start();
        steady.start();
        flood.join();
        steady.join();
        report("flooded", flood);
        report("keptUp", steady);
        floodedGroup.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        keptUpGroup.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        // the final report is written at exit, with the backlog still referenced by the report's last sample
    }

    private static EventLoopGroup flooded() {
        return new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    }

    private static EventLoopGroup keptUp() {
        return new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    }

    private static void report(final String name, final Producer producer) {
        System.out.println("case=" + name + " queue=" + producer.queueType + " pending_max=" + producer.pendingMax);
    }

    /** A task of about {@link #TASK_NANOS} of work on the loop. */
    private static void work() {
        final long end = System.nanoTime() + TASK_NANOS;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    /** Hands one loop tasks: as fast as it can up to the backlog (period 0), or one per period. */
    private static final class Producer extends Thread {
        private final SingleThreadEventExecutor loop;
        private final long holdNanos;
        private final long periodNanos;
        volatile int pendingMax;
        volatile String queueType = "?";

        Producer(final SingleThreadEventExecutor loop, final long holdNanos, final long periodNanos) {
            super("corpus-producer");
            this.loop = loop;
            this.holdNanos = holdNanos;
            this.periodNanos = periodNanos;
        }

        @Override
        public void run() {
            final CountDownLatch ran = new CountDownLatch(1);
            ((EventLoop) loop).execute(ran::countDown);
            try {
                ran.await();
            } catch (final InterruptedException e) {
                return;
            }
            queueType = taskQueueType();
            final long end = System.nanoTime() + holdNanos;
            while (System.nanoTime() < end) {
                if (periodNanos == 0) {
                    while (loop.pendingTasks() < BACKLOG) {
                        loop.execute(NettyLoops::work);
                    }
                    LockSupport.parkNanos(1_000_000L);
                } else {
                    loop.execute(NettyLoops::work);
                    LockSupport.parkNanos(periodNanos);
                }
                pendingMax = Math.max(pendingMax, loop.pendingTasks());
            }
        }

        /** The class of the loop's task queue, read as the test's truth of what mech must find. */
        private String taskQueueType() {
            try {
                final java.lang.reflect.Field field = SingleThreadEventExecutor.class.getDeclaredField("taskQueue");
                field.setAccessible(true);
                return field.get(loop).getClass().getName();
            } catch (final ReflectiveOperationException | RuntimeException e) {
                return "unreadable: " + e;
            }
        }
    }
}
