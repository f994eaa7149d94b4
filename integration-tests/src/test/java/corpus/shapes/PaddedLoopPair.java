package corpus.shapes;

/** 128 bytes before {@code first}. */
abstract class PaddedLoopPairLeft {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The first worker's counter. */
abstract class PaddedLoopPairFirst extends PaddedLoopPairLeft {
    volatile long first;
}

/** 128 bytes between the counters. */
abstract class PaddedLoopPairMiddle extends PaddedLoopPairFirst {
    long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
}

/** The second worker's counter. */
abstract class PaddedLoopPairSecond extends PaddedLoopPairMiddle {
    volatile long second;
}

/** {@link LoopPair}'s twin, padded by a class hierarchy: its counters never share a line or a line pair. */
public final class PaddedLoopPair extends PaddedLoopPairSecond {
    long r00, r01, r02, r03, r04, r05, r06, r07, r08, r09, r10, r11, r12, r13, r14, r15;
}
