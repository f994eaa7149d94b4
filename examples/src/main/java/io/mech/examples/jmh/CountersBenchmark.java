package io.mech.examples.jmh;

import io.mech.examples.counters.CountersKernel;
import io.mech.examples.counters.SharedCounter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/** Every thread increments one shared counter; set the thread count with -t. */
@State(Scope.Benchmark)
@Fork(1)
@Threads(2)
public class CountersBenchmark {

    @Param({"get-and-increment", "cas-loop", "long-adder"})
    public String variant;

    private SharedCounter counter;

    @Setup
    public void setUp() {
        counter = CountersKernel.counter(variant).get();
    }

    @Benchmark
    public void increment() {
        counter.increment(1);
    }
}
