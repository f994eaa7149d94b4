package corpus.shapes;

/** The first thread's field. */
abstract class PaddedJmhStateFirst {
    volatile long first;
}

/** Sixteen ints, as JMH-style states pad: 64 bytes, so the fields sit on neighbouring lines, never on one. */
abstract class PaddedJmhStatePad extends PaddedJmhStateFirst {
    int p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** {@link JmhState} padded with 16 ints: fields 72 bytes apart. */
public final class PaddedJmhState extends PaddedJmhStatePad {
    volatile long second;
}
