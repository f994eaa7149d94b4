package io.mech.examples.littleslaw;

import io.mech.examples.Check;
import io.mech.examples.Kernel;
import io.mech.examples.KernelDescriptor;
import io.mech.examples.Measurement;
import io.mech.examples.RunConfig;
import io.mech.examples.StopSignal;
import io.mech.examples.Team;
import io.mech.examples.VariantDescriptor;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Little's law in a steady state with a known service time: {@value #TOKENS} tokens circulate
 * through an unbounded LinkedBlockingQueue and one server, which serves each for 100 to 300 µs
 * (mean {@value #MEAN_SERVICE_NANOS} ns, spinning on the clock) and puts it back. So the queue
 * holds {@code TOKENS - 1} tokens at all times, and each waits about
 * {@code (TOKENS - 1) x 200 µs}, some 12.6 ms. The server stamps every token as it enqueues it and
 * measures each token's wait itself ({@code mean_wait_ms}): the figure a queue probe's
 * depth-over-dequeue-rate estimate must match. Nothing is defective: a probe must stay silent.
 */
public final class LittlesLawKernel implements Kernel {

    static final int TOKENS = 64;
    static final long MEAN_SERVICE_NANOS = 200_000;

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("littles-law",
            "tokens circulate through one queue and a server with a known service time",
            List.of(VariantDescriptor.builder("steady", "64 tokens, 100-300 us service: the queue holds 63, each waits ~12.6 ms")
                    .build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    /** A circulating token: when it last entered the queue. */
    private static final class Token {
        final int id;
        long enqueuedAt;

        Token(final int id) {
            this.id = id;
        }
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final LinkedBlockingQueue<Token> queue = new LinkedBlockingQueue<>();
        for (int i = 0; i < TOKENS; i++) {
            final Token token = new Token(i);
            token.enqueuedAt = System.nanoTime();
            queue.put(token);
        }
        final long[] served = new long[1];
        final long[] waited = new long[1];
        final long[] idSum = new long[1];
        final Team team = new Team();
        final StopSignal stop = team.stop();
        final long start = System.nanoTime();
        team.start("littles-law-server", () -> {
            long seed = 0x9E3779B97F4A7C15L;
            while (!stop.isRaised()) {
                final Token token = queue.take();
                final long now = System.nanoTime();
                waited[0] += now - token.enqueuedAt;
                seed ^= seed << 13;
                seed ^= seed >>> 7;
                seed ^= seed << 17;
                final long service = MEAN_SERVICE_NANOS / 2 + Math.floorMod(seed, MEAN_SERVICE_NANOS);
                while (System.nanoTime() - now < service) {
                    Thread.onSpinWait();
                }
                served[0]++;
                idSum[0] += token.id;
                token.enqueuedAt = System.nanoTime();
                queue.put(token);
            }
        });
        team.runFor(config.nanos());
        team.join();
        final long nanos = System.nanoTime() - start;
        Check.equal("tokens in the queue after the run", TOKENS, queue.size());
        long ids = 0;
        for (final Token token : queue) {
            ids += token.id;
        }
        Check.equal("token ids", (long) TOKENS * (TOKENS - 1) / 2, ids);
        Check.that(served[0] > 0 && idSum[0] >= 0, "no token served");
        final double meanWaitMillis = waited[0] / 1e6 / served[0];
        return Measurement.of(1, served[0], nanos)
                .with("mean_wait_ms", String.format(java.util.Locale.ROOT, "%.3f", meanWaitMillis))
                .with("mean_service_us", MEAN_SERVICE_NANOS / 1000);
    }
}
