package io.mech.examples.falsesharing;

/** Keeps {@code value} off the line of whatever sits just before the counter. */
abstract class CounterLeftPad {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** Holds the count. */
abstract class CounterValue extends CounterLeftPad {
    volatile long value;
}

/**
 * One counter in an object of its own, padded by 128 bytes on either side. Allocating it on its
 * writer's thread puts it far from the other writer's at first, but a young collection copies
 * both into the same survivor space, where they may land side by side: the probe saw two such
 * unpadded counters share a line after one.
 */
final class Counter extends CounterValue {
    long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
}
