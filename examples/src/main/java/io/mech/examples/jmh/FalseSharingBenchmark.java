package io.mech.examples.jmh;

import io.mech.examples.falsesharing.CounterPair;
import io.mech.examples.falsesharing.FalseSharingKernel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Two writer roles, one per counter, over each layout of the false-sharing kernel. The contended
 * layout needs -XX:-RestrictContended, which every fork gets; object-array needs default
 * alignment, so no fork here changes ObjectAlignmentInBytes.
 */
@State(Scope.Group)
@Fork(value = 1, jvmArgsAppend = "-XX:-RestrictContended")
public class FalseSharingBenchmark {
    private static final int BATCH = 1024;

    @Param({"same-object", "static-fields", "object-array", "padded", "separate-objects", "contended"})
    public String variant;

    private CounterPair pair;

    @Setup
    public void setUp() {
        pair = FalseSharingKernel.layout(variant).get();
    }

    @Benchmark
    @Group("writers")
    @GroupThreads(1)
    @OperationsPerInvocation(BATCH)
    public void first() {
        pair.runFirst(BATCH);
    }

    @Benchmark
    @Group("writers")
    @GroupThreads(1)
    @OperationsPerInvocation(BATCH)
    public void second() {
        pair.runSecond(BATCH);
    }
}
