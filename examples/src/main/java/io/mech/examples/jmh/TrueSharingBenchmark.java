package io.mech.examples.jmh;

import io.mech.examples.truesharing.GlobalPollCounter;
import io.mech.examples.truesharing.LocalPollCounter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/** A call counter polled every 256 calls: global static versus per thread. */
@Fork(1)
@Threads(2)
public class TrueSharingBenchmark {

    /** One counter per benchmark thread. */
    @State(Scope.Thread)
    public static class PerThread {
        final LocalPollCounter counter = new LocalPollCounter();
    }

    @Benchmark
    public boolean globalCounter() {
        return GlobalPollCounter.tick();
    }

    @Benchmark
    public boolean perThread(final PerThread state) {
        return state.counter.tick();
    }
}
