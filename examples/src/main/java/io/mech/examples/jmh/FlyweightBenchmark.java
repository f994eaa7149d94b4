package io.mech.examples.jmh;

import io.mech.examples.flyweight.FlyweightKernel;
import io.mech.examples.flyweight.TradeTable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Rows scanned per second: trade objects versus flyweights over packed bytes. */
@State(Scope.Thread)
@Fork(1)
public class FlyweightBenchmark {

    @Param({"object-array", "heap-flyweight", "off-heap-flyweight"})
    public String variant;

    private TradeTable table;

    @Setup
    public void setUp() {
        table = FlyweightKernel.table(variant);
    }

    @Benchmark
    @OperationsPerInvocation(FlyweightKernel.ROWS)
    public long scan() {
        return table.buyNotional(0, table.rows());
    }
}
