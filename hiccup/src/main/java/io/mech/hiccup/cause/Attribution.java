package io.mech.hiccup.cause;

import java.util.EnumMap;
import java.util.Map;

/**
 * One stall and what caused it.
 *
 * @param endNanos    when the stall ended, epoch nanoseconds
 * @param lengthNanos how long it lasted
 * @param cause       the cause that covers most of it
 * @param detail      the collector and GC cause, the VM operation, or what the OS did
 * @param portions    how much of the stall each cause covers; adds up to the length
 */
public record Attribution(long endNanos, long lengthNanos, Cause cause, String detail, Map<Cause, Long> portions) {

    /** Copies the portions. */
    public Attribution {
        portions = new EnumMap<>(portions);
    }

    /** When the stall began, epoch nanoseconds. */
    public long startNanos() {
        return endNanos - lengthNanos;
    }
}
