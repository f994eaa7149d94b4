package io.mech.examples.backpressure;

import io.mech.examples.Check;
import io.mech.examples.Finding;
import io.mech.examples.Kernel;
import io.mech.examples.KernelDescriptor;
import io.mech.examples.Measurement;
import io.mech.examples.RunConfig;
import io.mech.examples.Team;
import io.mech.examples.VariantDescriptor;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * A producer feeding a slower consumer through a bounded queue, and the fixed twin whose
 * producer is paced below the consumer's rate and waits for the consumer beyond a window.
 * Always one producer and one consumer.
 */
public final class BackPressureKernel implements Kernel {

    static final int CAPACITY = 1024;
    /** Consumer work per item: long enough (about a microsecond) that the queue lock is rarely fought over. */
    static final int CONSUMER_ROUNDS = 400;
    /**
     * The fixed producer does twice the consumer's work per item, so it never outruns it. With a
     * quarter more, the consumer's own queue costs (take, signal, a woven dequeue count) ate the
     * margin on 2 shared cores: one run held the queue at a mean depth of 398 of 1024.
     */
    static final int PACED_PRODUCER_ROUNDS = CONSUMER_ROUNDS * 2;
    /**
     * The fixed producer's window: at most a quarter of the queue in flight, well under the 70%
     * the queue probe alerts at, even when the consumer is descheduled (one loaded CI run
     * starved it long enough to fill the queue behind a producer paced by work alone).
     */
    static final int PACED_WINDOW = CAPACITY / 4;

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("back-pressure",
            "a producer feeds a bounded ArrayBlockingQueue faster than its consumer drains it",
            List.of(
                    VariantDescriptor.builder("overfed", "the producer does no work per item: the queue fills, put blocks")
                            .flags(Finding.BACK_PRESSURE, ArrayBlockingQueue.class)
                            .flags(Finding.QUEUE_DEPTH, ArrayBlockingQueue.class)
                            .twin("matched").build(),
                    VariantDescriptor.builder("matched",
                                    "fix: the producer is paced below the consumer's rate and keeps at most a quarter of the queue in flight")
                            .build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final boolean overfed = variant.name().equals("overfed");
        final BoundedPipeline pipeline = overfed ? new BoundedPipeline(CAPACITY, 0, CONSUMER_ROUNDS, CAPACITY)
            : new BoundedPipeline(CAPACITY, PACED_PRODUCER_ROUNDS, CONSUMER_ROUNDS, PACED_WINDOW);
        final Team team = new Team();
        final long start = System.nanoTime();
        team.start("back-pressure-producer", () -> pipeline.produce(team.stop()));
        team.start("back-pressure-consumer", pipeline::consume);
        team.runFor(config.nanos());
        team.join();
        final long nanos = System.nanoTime() - start;
        Check.equal("items consumed", pipeline.produced(), pipeline.consumed());
        Check.equal("items out of order", 0, pipeline.outOfOrder());
        Check.that(pipeline.consumerWorkDone(), "consumer work vanished");
        return Measurement.of(2, pipeline.consumed(), nanos);
    }
}
