package io.mech.examples.serialization;

import io.mech.examples.Check;
import io.mech.examples.Kernel;
import io.mech.examples.KernelDescriptor;
import io.mech.examples.Measurement;
import io.mech.examples.RunConfig;
import io.mech.examples.TimedRun;
import io.mech.examples.VariantDescriptor;
import io.mech.examples.trades.Trade;
import java.util.List;

/** One thread round-trips trades through an encoding and compares each result with the original. */
public final class SerializationKernel implements Kernel {

    private static final int BATCH = 64;

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("serialization",
            "encode and decode a trade: Java serialization, a heap ByteBuffer, a direct ByteBuffer",
            List.of(
                    VariantDescriptor.builder("java-serialization", "ObjectOutputStream and ObjectInputStream").build(),
                    VariantDescriptor.builder("byte-buffer", "fixed binary layout in a heap ByteBuffer").build(),
                    VariantDescriptor.builder("direct-buffer", "fixed binary layout in a direct ByteBuffer").build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final TradeCodec codec = codec(variant.name());
        final long[] state = new long[2];
        final TimedRun.Result result = TimedRun.run(config, List.of(
                new TimedRun.Role("serialization-codec", BATCH, count -> {
                    long next = state[0];
                    long wrong = 0;
                    for (int i = 0; i < count; i++) {
                        final Trade trade = Trade.nth(next++);
                        if (!trade.equals(codec.roundTrip(trade))) {
                            wrong++;
                        }
                    }
                    state[0] = next;
                    state[1] += wrong;
                })));
        Check.equal("trades round-tripped", result.total(), state[0]);
        Check.equal("trades changed by a round trip", 0, state[1]);
        return Measurement.of(1, result.total(), result.nanos());
    }

    /**
     * @param variant a variant name of this kernel
     * @return a fresh codec for it
     */
    public static TradeCodec codec(final String variant) {
        switch (variant) {
            case "java-serialization":
                return new JavaSerializationCodec();
            case "byte-buffer":
                return new BufferCodec(false);
            case "direct-buffer":
                return new BufferCodec(true);
            default:
                throw new IllegalArgumentException("no serialization variant " + variant);
        }
    }
}
