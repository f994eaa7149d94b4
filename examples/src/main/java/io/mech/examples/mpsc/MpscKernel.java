package io.mech.examples.mpsc;

import io.mech.examples.BusyWork;
import io.mech.examples.Check;
import io.mech.examples.Finding;
import io.mech.examples.Kernel;
import io.mech.examples.KernelDescriptor;
import io.mech.examples.Measurement;
import io.mech.examples.RunConfig;
import io.mech.examples.StopSignal;
import io.mech.examples.Team;
import io.mech.examples.VariantDescriptor;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Producers feed one consumer through {@link MpscLinkedQueue}; the consumer does a little work per
 * item, so producers outpace it. The defect lets each producer run far ahead (a deep queue); the
 * twin keeps them within a few items. Threads: producers + 1 consumer, default 2 + 1.
 */
public final class MpscKernel implements Kernel {

    private static final int DEFAULT_THREADS = 3;
    /** Items a producer may have outstanding in the defect: deep, yet bounded so the heap stays small. */
    static final long DEEP_BACKLOG = 100_000;
    static final long SHALLOW_BACKLOG = 8;
    /** Consumer work per item: slower than a bare offer, so producers outpace the consumer. */
    static final int CONSUMER_ROUNDS = 64;
    private static final int PRODUCER_SHIFT = 48;
    private static final long SEQ_MASK = (1L << PRODUCER_SHIFT) - 1;

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("mpsc",
            "producers outpace one consumer through Vyukov's MPSC linked queue",
            List.of(
                    VariantDescriptor.builder("outpaced", "producers run up to 100,000 items ahead: the queue stays deep")
                            .flags(Finding.QUEUE_DEPTH, MpscLinkedQueue.class).twin("throttled").build(),
                    VariantDescriptor.builder("throttled", "fix: producers wait once 8 of their items are outstanding")
                            .build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final int producers = Math.max(1, config.threadsOr(DEFAULT_THREADS) - 1);
        final long limit = variant.name().equals("outpaced") ? DEEP_BACKLOG : SHALLOW_BACKLOG;
        final MpscLinkedQueue<Long> queue = new MpscLinkedQueue<>();
        final Backlog backlog = new Backlog(producers, limit);
        final long[] produced = new long[producers];
        final long[] consumed = new long[producers];
        final long[] outOfOrder = new long[1];
        final long[] maxSize = new long[1];
        final AtomicInteger running = new AtomicInteger(producers);
        final Team team = new Team();
        final StopSignal stop = team.stop();
        final long start = System.nanoTime();
        for (int p = 0; p < producers; p++) {
            final int id = p;
            team.start("mpsc-producer-" + p, () -> {
                final long tag = (long) id << PRODUCER_SHIFT;
                long seq = 0;
                while (!stop.isRaised()) {
                    if (backlog.tooFarAhead(id, seq)) {
                        Thread.onSpinWait();
                    } else {
                        queue.offer(tag | seq++);
                    }
                }
                produced[id] = seq;
                running.decrementAndGet();
            });
        }
        team.start("mpsc-consumer", () -> {
            final long[] next = new long[producers];
            long wrong = 0;
            long work = 1;
            long polled = 0;
            long deepest = 0;
            while (true) {
                final Long item = queue.poll();
                if (item == null) {
                    for (int p = 0; p < producers; p++) {
                        backlog.publish(p, next[p]);
                    }
                    if (running.get() == 0 && queue.isEmpty()) {
                        break;
                    }
                    Thread.onSpinWait();
                    continue;
                }
                final int p = (int) (item >>> PRODUCER_SHIFT);
                if ((item & SEQ_MASK) != next[p]) {
                    wrong++;
                }
                next[p] = (item & SEQ_MASK) + 1;
                work = BusyWork.burn(work ^ item, CONSUMER_ROUNDS);
                if ((++polled & 0xFF) == 0) {
                    backlog.publish(p, next[p]);
                }
                if ((polled & 0xFFFF) == 0) {
                    deepest = Math.max(deepest, queue.size());
                }
            }
            System.arraycopy(next, 0, consumed, 0, producers);
            outOfOrder[0] = wrong + (work == 0 ? 1 : 0);
            maxSize[0] = deepest;
        });
        team.runFor(config.nanos());
        team.join();
        final long nanos = System.nanoTime() - start;
        long total = 0;
        for (int p = 0; p < producers; p++) {
            Check.equal("items consumed from producer " + p, produced[p], consumed[p]);
            total += consumed[p];
        }
        Check.equal("items lost, repeated or out of order", 0, outOfOrder[0]);
        Check.equal("size of the drained queue", 0, queue.size());
        return Measurement.of(producers + 1, total, nanos).with("producers", producers).with("max_size_seen", maxSize[0]);
    }
}
