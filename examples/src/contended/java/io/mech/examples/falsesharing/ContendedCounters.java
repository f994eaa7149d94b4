package io.mech.examples.falsesharing;

import jdk.internal.vm.annotation.Contended;

/**
 * The fix by annotation: HotSpot pads each {@code @Contended} field by ContendedPaddingWidth (128)
 * bytes. Outside the JDK the annotation is ignored unless the JVM runs with
 * {@code -XX:-RestrictContended}; compiling against it needs
 * {@code --add-exports java.base/jdk.internal.vm.annotation=ALL-UNNAMED}, which javac refuses
 * together with {@code --release}, so this file alone is built with {@code -source/-target 17}.
 */
public final class ContendedCounters implements CounterPair {
    @Contended
    volatile long first;
    @Contended
    volatile long second;

    @Override
    public void runFirst(final int times) {
        for (int i = 0; i < times; i++) {
            first++;
        }
    }

    @Override
    public void runSecond(final int times) {
        for (int i = 0; i < times; i++) {
            second++;
        }
    }

    @Override
    public long first() {
        return first;
    }

    @Override
    public long second() {
        return second;
    }
}
