package io.mech.examples;

/**
 * Keeps the flag off any cache line a kernel writes: workers read it between every batch. The
 * int fills the 4 bytes after a compressed object header: left empty, the JVM (JDK 15 and newer)
 * put the subclass's flag there, at offset 12, on the line of whatever object lies before it,
 * and the false-sharing probe duly found the flag sharing a line with a kernel's counter.
 */
abstract class StopSignalLeftPad {
    int header;
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** Holds the flag between the two pads. */
abstract class StopSignalField extends StopSignalLeftPad {
    volatile boolean raised;
}

/** Keeps objects allocated after this one off the flag's line. */
abstract class StopSignalRightPad extends StopSignalField {
    long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
}

/**
 * A one-shot flag the coordinating thread raises and workers poll. Padded by 128 bytes each side
 * so that polling it never creates the sharing a kernel is trying to show or avoid.
 */
public final class StopSignal extends StopSignalRightPad {

    /** Raises the flag; idempotent. */
    public void raise() {
        raised = true;
    }

    /** @return whether the flag was raised */
    public boolean isRaised() {
        return raised;
    }
}
