package io.mech.hiccup.cause;

/** Told of each stall once its cause is known, on the attributing thread; must not block. */
@FunctionalInterface
public interface AttributionListener {

    /** A stall has been attributed. */
    void attributed(Attribution attribution);
}
