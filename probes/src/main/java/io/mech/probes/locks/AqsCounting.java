package io.mech.probes.locks;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.security.ProtectionDomain;
import io.mech.probes.weave.JdkBridge;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.AbstractQueuedLongSynchronizer;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;

/**
 * Counts every contended acquisition of ReentrantLock and ReentrantReadWriteLock: times the
 * acquire slow path of AbstractQueuedSynchronizer and AbstractQueuedLongSynchronizer
 * (ReentrantReadWriteLock's base from JDK 22 on) with {@link AcquireTiming}, which calls a
 * {@link JdkBridge} defined inside {@code java.util.concurrent.locks}.
 *
 * <p>Uncontended code is untouched: {@code lock()} reaches the woven method only after its first
 * CAS failed. Installing retransforms two classes; call it off the host's main thread. The
 * weaver is registered only while it weaves: a later retransformation of either class, by
 * another agent, drops the timing. {@link #close} removes the timing again.
 */
final class AqsCounting implements AutoCloseable {

    static final JdkBridge BRIDGE = new JdkBridge(AbstractQueuedSynchronizer.class, AqsBridge.class);

    /** The lock classes and modes of the bridge's kinds, in kind order. */
    private static final String[][] KINDS = {
        {"java.util.concurrent.locks.ReentrantLock", ""},
        {"java.util.concurrent.locks.ReentrantReadWriteLock", "write"},
        {"java.util.concurrent.locks.ReentrantReadWriteLock", "read"},
    };

    private final Instrumentation inst;
    private final Weaver weaver;
    private final long[] cells;
    private final long[] baseline;

    private AqsCounting(final Instrumentation inst, final Weaver weaver, final long[] cells) {
        this.inst = inst;
        this.weaver = weaver;
        this.cells = cells;
        this.baseline = cells.clone();
    }

    /**
     * Opens the package, defines (or finds) the bridge and weaves the advice.
     *
     * @return the counting, or null after one warning when it cannot be installed
     */
    static AqsCounting install(final Instrumentation inst, final java.util.function.Consumer<String> warnings) {
        if (!inst.isRetransformClassesSupported()) {
            warnings.accept("the agent cannot retransform classes; short j.u.c. lock contention is not counted");
            return null;
        }
        Weaver weaver = null;
        try {
            final Class<?> bridge = BRIDGE.define(inst);
            final long[] cells = (long[]) MethodHandles.privateLookupIn(bridge, MethodHandles.lookup())
                .findStatic(bridge, "cells", MethodType.methodType(long[].class)).invoke();
            weaver = new Weaver(new AcquireTiming(BRIDGE.name().replace('.', '/')));
            inst.addTransformer(weaver, true);
            inst.retransformClasses(AbstractQueuedSynchronizer.class, AbstractQueuedLongSynchronizer.class);
            if (weaver.failure != null) {
                throw weaver.failure;
            }
            if (weaver.woven.size() != 2) {
                throw new IllegalStateException("woven " + weaver.woven + ", expected both synchronizers");
            }
            // Both classes are woven and no other is wanted: left registered, the weaver would be
            // called at every class the host loads from then on, and under a full heap the JDK's
            // instrument library failed an assertion on the host's stderr at such a load ("can't
            // create name string", JDK 25). The price: another agent's retransformation of either
            // class drops the timing.
            inst.removeTransformer(weaver);
            return new AqsCounting(inst, weaver, cells);
        } catch (final Throwable e) {
            if (weaver != null) {
                unweave(inst, weaver);
            }
            warnings.accept("j.u.c. lock counting not installed (" + e + "); short j.u.c. lock contention is not counted");
            return null;
        }
    }

    private static void unweave(final Instrumentation inst, final Weaver weaver) {
        inst.removeTransformer(weaver);
        try {
            inst.retransformClasses(AbstractQueuedSynchronizer.class, AbstractQueuedLongSynchronizer.class);
        } catch (final Throwable ignored) {
            // the classes keep the advice; it only counts
        }
    }

    /** @return contended acquisitions since install, one row per lock kind seen */
    List<JucContention> read() {
        final List<JucContention> rows = new ArrayList<>(AqsBridge.KINDS);
        for (int kind = 0; kind < AqsBridge.KINDS; kind++) {
            long count = 0;
            long total = 0;
            long max = 0;
            final long[] buckets = new long[AqsBridge.BUCKETS];
            for (int stripe = 0; stripe < AqsBridge.STRIPES; stripe++) {
                final int base = AqsBridge.PAD + stripe * AqsBridge.STRIDE + kind * AqsBridge.FIELDS;
                count += cells[base] - baseline[base];
                total += cells[base + 1] - baseline[base + 1];
                // the maximum cannot be rebased: before install it stays 0 unless a second probe runs
                max = Math.max(max, cells[base + 2]);
                for (int b = 0; b < AqsBridge.BUCKETS; b++) {
                    buckets[b] += cells[base + 3 + b] - baseline[base + 3 + b];
                }
            }
            if (count > 0) {
                rows.add(new JucContention(KINDS[kind][0], KINDS[kind][1], count, total, max, BlockedHistogram.of(buckets)));
            }
        }
        rows.sort((a, b) -> Long.compare(b.count(), a.count()));
        return rows;
    }

    @Override
    public void close() {
        unweave(inst, weaver);
    }

    /** Weaves the timing into the two synchronizers when they are retransformed. */
    private static final class Weaver implements ClassFileTransformer {
        private static final Set<String> TARGETS = Set.of(
            "java/util/concurrent/locks/AbstractQueuedSynchronizer",
            "java/util/concurrent/locks/AbstractQueuedLongSynchronizer");

        private final AcquireTiming timing;
        final Set<String> woven = java.util.concurrent.ConcurrentHashMap.newKeySet();
        volatile Throwable failure;

        Weaver(final AcquireTiming timing) {
            this.timing = timing;
        }

        @Override
        public byte[] transform(final Module module, final ClassLoader loader, final String className,
                                final Class<?> redefined, final ProtectionDomain domain, final byte[] classFile) {
            if (loader != null || className == null || !TARGETS.contains(className)) {
                return null;
            }
            try {
                final byte[] woven = timing.weave(classFile);
                if (woven == null) {
                    throw new IllegalStateException(className + " has no acquire(node, arg, shared, interruptible, timed, time)");
                }
                this.woven.add(className);
                return woven;
            } catch (final Throwable e) {
                failure = e;
                return null;
            }
        }
    }
}
