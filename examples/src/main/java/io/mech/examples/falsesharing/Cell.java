package io.mech.examples.falsesharing;

/** A 24-byte object with one counter: two or three fit in a cache line. */
final class Cell {
    volatile long value;
}
