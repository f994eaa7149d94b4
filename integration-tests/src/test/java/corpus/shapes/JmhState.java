package corpus.shapes;

/** A JMH-style state shared by two benchmark threads, unpadded: the twin {@link PaddedJmhState} fixes. */
public final class JmhState {
    volatile long first;
    volatile long second;
}
