package io.mech.examples.lazyset;

import io.mech.examples.Check;
import io.mech.examples.Finding;
import io.mech.examples.Kernel;
import io.mech.examples.KernelDescriptor;
import io.mech.examples.Measurement;
import io.mech.examples.RunConfig;
import io.mech.examples.Team;
import io.mech.examples.VariantDescriptor;
import java.util.List;

/**
 * Two threads signalling through lazySet flags: ping-pong (a round trip per value) and catch-up
 * (the leader streams, the follower echoes), with the flags on one line or padded apart.
 * Always two threads.
 */
public final class LazySetKernel implements Kernel {

    private static final String ALIGN_TO_LINES = "-XX:ObjectAlignmentInBytes=64";

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("lazy-set",
            "two threads signal through release-store flags: ping-pong and catch-up",
            List.of(
                    VariantDescriptor.builder("ping-pong-shared", "round trips, both flags in one object")
                            .flags(Finding.FALSE_SHARING, SharedLineFlags.class, "ping", "pong")
                            .jvmArgs(ALIGN_TO_LINES).twin("ping-pong-padded").build(),
                    VariantDescriptor.builder("ping-pong-padded", "round trips, flags 128 bytes apart").build(),
                    VariantDescriptor.builder("catch-up-shared", "leader streams, follower echoes, one object")
                            .flags(Finding.FALSE_SHARING, SharedLineFlags.class, "ping", "pong")
                            .jvmArgs(ALIGN_TO_LINES).twin("catch-up-padded").build(),
                    VariantDescriptor.builder("catch-up-padded", "leader streams, follower echoes, flags apart").build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final String name = variant.name();
        final Exchange exchange = new Exchange(flags(name));
        final boolean pingPong = name.startsWith("ping-pong");
        final Team team = new Team();
        final long start = System.nanoTime();
        if (pingPong) {
            team.start("lazy-set-pong", exchange::pong);
            team.start("lazy-set-ping", () -> exchange.ping(team.stop()));
        } else {
            team.start("lazy-set-follower", exchange::follow);
            team.start("lazy-set-leader", () -> exchange.lead(team.stop()));
        }
        team.runFor(config.nanos());
        team.join();
        final long nanos = System.nanoTime() - start;
        Check.equal("last value acknowledged", exchange.sent(), exchange.received());
        Check.equal("values seen out of order", 0, exchange.violations());
        return Measurement.of(2, exchange.sent(), nanos);
    }

    /**
     * @param variant a variant name of this kernel
     * @return fresh flags with that variant's layout
     */
    public static FlagPair flags(final String variant) {
        return variant.endsWith("-shared") ? new SharedLineFlags() : new PaddedFlags();
    }
}
