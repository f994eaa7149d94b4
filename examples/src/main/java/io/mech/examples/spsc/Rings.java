package io.mech.examples.spsc;

/** Capacity arithmetic shared by the power-of-two rings. */
final class Rings {
    private Rings() {
    }

    static int mask(final int capacity) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two >= 2, got " + capacity);
        }
        return capacity - 1;
    }
}
