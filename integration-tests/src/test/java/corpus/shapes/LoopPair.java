package corpus.shapes;

/** The first shape: two hot volatile counters of one object, each a worker loop's own. */
public final class LoopPair {
    volatile long first;
    volatile long second;
}
