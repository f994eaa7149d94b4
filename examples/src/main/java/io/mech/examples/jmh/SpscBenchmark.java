package io.mech.examples.jmh;

import io.mech.examples.spsc.SpscKernel;
import io.mech.examples.spsc.SpscQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** One producer role and one consumer role over each step of the SPSC ladder; failed calls count too. */
@State(Scope.Group)
@Fork(1)
public class SpscBenchmark {
    private static final Object TOKEN = new Object();

    @Param({"blocking-queue", "volatile-modulo", "lazy-set", "power-of-two", "padded", "cached"})
    public String variant;

    private SpscQueue<Object> queue;

    @Setup
    public void setUp() {
        queue = SpscKernel.queue(variant).get();
    }

    @Benchmark
    @Group("transfer")
    @GroupThreads(1)
    public boolean offer() {
        return queue.offer(TOKEN);
    }

    @Benchmark
    @Group("transfer")
    @GroupThreads(1)
    public Object poll() {
        return queue.poll();
    }
}
