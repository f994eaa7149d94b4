package io.mech.hiccup;

import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * A source of tagged histograms for the hiccup log, such as one per hiccup cause. Called on
 * the log thread only.
 */
public interface TaggedIntervals {

    /** An interval of the log has closed. */
    void intervalClosed(long startMillis, long endMillis);

    /**
     * Hands each tagged histogram that is final to the writer, oldest first, with its tag and its
     * interval's time stamps set. A histogram is the writer's only during its call: the source
     * reuses it afterwards, so that an interval's lines allocate nothing.
     *
     * @param all    true at shutdown: everything, final or not
     * @param writer writes a line of the log
     */
    void drainFinished(boolean all, Consumer<Histogram> writer);
}
