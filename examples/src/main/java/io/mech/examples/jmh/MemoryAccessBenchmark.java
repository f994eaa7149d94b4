package io.mech.examples.jmh;

import io.mech.examples.memory.AccessPattern;
import io.mech.examples.memory.MemoryAccessKernel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Reads per second for each walk order over the 64 MiB array. */
@State(Scope.Thread)
@Fork(1)
public class MemoryAccessBenchmark {
    private static final int READS = 4096;

    @Param({"linear", "random-in-page", "random-in-heap"})
    public String variant;

    private AccessPattern pattern;

    @Setup
    public void setUp() {
        pattern = new AccessPattern(MemoryAccessKernel.order(variant));
    }

    @Benchmark
    @OperationsPerInvocation(READS)
    public long walk() {
        pattern.walk(READS);
        return pattern.valueSum();
    }
}
