package io.mech.examples;

import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs symmetric workers for a fixed time: each worker runs its batch at least once (a worker the
 * scheduler starts only after a short run's end still does some work) and repeats it until the
 * stop flag is raised. The flag is polled between batches, not between operations, so its cost stays out of
 * the per-operation figure; each batch holds its own loop so the JIT sees one target per loop.
 */
public final class TimedRun {

    /** A worker's unit of repetition. */
    @FunctionalInterface
    public interface Batch {
        /**
         * @param ops how many operations to run
         * @throws Exception anything; it ends the run
         */
        void run(int ops) throws Exception;
    }

    /**
     * @param threadName descriptive name of the worker thread
     * @param batchSize  operations per batch: large enough to hide the flag poll, small enough to
     *                   stop promptly
     * @param batch      the work
     */
    public record Role(String threadName, int batchSize, Batch batch) {
        /** Validates. */
        public Role {
            if (batchSize < 1) {
                throw new IllegalArgumentException("batchSize must be >= 1, got " + batchSize);
            }
        }
    }

    /**
     * @param ops   operations per role, in the order the roles were given
     * @param nanos wall time from the common start to the last worker's end
     */
    public record Result(long[] ops, long nanos) {
        /** @return operations across all roles */
        public long total() {
            long sum = 0;
            for (final long n : ops) {
                sum += n;
            }
            return sum;
        }
    }

    /** Operations per batch for kernels whose operation takes nanoseconds. */
    public static final int BATCH_DEFAULT = 1024;

    private TimedRun() {
    }

    /**
     * Starts one thread per role, releases them together, stops them after the configured time.
     *
     * @param config duration
     * @param roles  the workers
     * @return per-role operation counts and the elapsed time
     * @throws InterruptedException if the caller is interrupted
     */
    public static Result run(final RunConfig config, final List<Role> roles) throws InterruptedException {
        final Team team = new Team();
        final StopSignal stop = team.stop();
        final CountDownLatch go = new CountDownLatch(1);
        final long[] ops = new long[roles.size()];
        for (int i = 0; i < roles.size(); i++) {
            final int slot = i;
            final Role role = roles.get(i);
            team.start(role.threadName(), () -> {
                go.await();
                final Batch batch = role.batch();
                final int size = role.batchSize();
                long done = 0;
                do {
                    batch.run(size);
                    done += size;
                } while (!stop.isRaised());
                ops[slot] = done;
            });
        }
        final long start = System.nanoTime();
        go.countDown();
        team.runFor(config.nanos());
        team.join();
        return new Result(ops, System.nanoTime() - start);
    }
}
