package io.mech.examples.jmh;

import io.mech.examples.locks.GuardedCounter;
import io.mech.examples.locks.LocksKernel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/** Each locking strategy guarding one counter; -t 1 for the single-threaded case, -t 2 contended. */
@State(Scope.Benchmark)
@Fork(1)
@Threads(2)
public class LocksBenchmark {

    @Param({"synchronized-contended", "cas-contended", "reentrant-contended", "spin-contended"})
    public String variant;

    private GuardedCounter counter;

    @Setup
    public void setUp() {
        counter = LocksKernel.counter(variant).get();
    }

    @Benchmark
    public void increment() {
        counter.increment(1);
    }
}
