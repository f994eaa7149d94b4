package io.mech.examples.falsesharing;

/** One counter in an object of its own. */
final class Counter {
    volatile long value;
}
