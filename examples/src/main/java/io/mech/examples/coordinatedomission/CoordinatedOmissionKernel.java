package io.mech.examples.coordinatedomission;

import io.mech.examples.Check;
import io.mech.examples.Kernel;
import io.mech.examples.KernelDescriptor;
import io.mech.examples.Measurement;
import io.mech.examples.RunConfig;
import io.mech.examples.Team;
import io.mech.examples.VariantDescriptor;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * A closed-loop generator at 10,000 requests per second against a mock service that, in the
 * stalling variant, stops for 50 ms every 500 ms (first after 50 ms, so short runs see one).
 * Prints percentiles from the actual and from the intended start. One thread.
 */
public final class CoordinatedOmissionKernel implements Kernel {

    static final long INTERVAL_NANOS = 100_000;
    static final long FIRST_STALL_NANOS = 50_000_000;
    static final long STALL_EVERY_NANOS = 500_000_000;
    static final long STALL_NANOS = 50_000_000;
    static final int WORK_ROUNDS = 2_000;

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("coordinated-omission",
            "closed-loop load against a stalling mock service: latency from actual versus intended start",
            List.of(
                    VariantDescriptor.builder("stalling-service", "the service stalls 50 ms every 500 ms").build(),
                    VariantDescriptor.builder("steady-service", "the same load, no stalls").build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final boolean stalling = variant.name().equals("stalling-service");
        final StallingService service = new StallingService(FIRST_STALL_NANOS,
                stalling ? STALL_EVERY_NANOS : 0, STALL_NANOS, WORK_ROUNDS);
        final LoadGenerator generator = new LoadGenerator(service, INTERVAL_NANOS);
        final Team team = new Team();
        final long start = System.nanoTime();
        team.start("coordinated-omission-load-generator", () -> generator.run(team.stop()));
        team.runFor(config.nanos());
        team.join();
        final long nanos = System.nanoTime() - start;
        final Histogram actual = generator.fromActual();
        final Histogram intended = generator.fromIntended();
        Check.equal("latencies recorded from actual start", generator.requests(), actual.getTotalCount());
        Check.equal("latencies recorded from intended start", generator.requests(), intended.getTotalCount());
        Check.equal("requests whose intended-start latency is below the actual one", 0, generator.intendedBelowActual());
        Check.that(generator.requests() == 0 || generator.checksum() != 0, "service responses vanished");
        Check.that(!stalling || service.stalls() == 0 || actual.getMaxValue() >= STALL_NANOS,
                "a stall happened but the worst actual-start latency is below the stall");
        return Measurement.of(1, generator.requests(), nanos)
                .with("stalls", service.stalls())
                .with("actual_p50_us", micros(actual.getValueAtPercentile(50)))
                .with("actual_p99_us", micros(actual.getValueAtPercentile(99)))
                .with("actual_max_us", micros(actual.getMaxValue()))
                .with("intended_p50_us", micros(intended.getValueAtPercentile(50)))
                .with("intended_p99_us", micros(intended.getValueAtPercentile(99)))
                .with("intended_max_us", micros(intended.getMaxValue()));
    }

    private static String micros(final long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e3);
    }
}
