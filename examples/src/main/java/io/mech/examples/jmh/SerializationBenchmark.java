package io.mech.examples.jmh;

import io.mech.examples.serialization.SerializationKernel;
import io.mech.examples.serialization.TradeCodec;
import io.mech.examples.trades.Trade;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Round trips per second through each encoding. */
@State(Scope.Thread)
@Fork(1)
public class SerializationBenchmark {

    @Param({"java-serialization", "byte-buffer", "direct-buffer"})
    public String variant;

    private TradeCodec codec;
    private final Trade trade = Trade.nth(12_345);

    @Setup
    public void setUp() {
        codec = SerializationKernel.codec(variant);
    }

    @Benchmark
    public Trade roundTrip() {
        return codec.roundTrip(trade);
    }
}
