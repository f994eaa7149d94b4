package io.mech.hiccup;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * A source of tagged histograms for the hiccup log, such as one per hiccup cause. Called on
 * the log thread only.
 */
public interface TaggedIntervals {

    /** An interval of the log has closed. */
    void intervalClosed(long startMillis, long endMillis);

    /**
     * The tagged histograms that are final, each with its tag and its interval's start and end
     * time stamps set, oldest first.
     *
     * @param all true at shutdown: everything, final or not
     */
    List<Histogram> drainFinished(boolean all);
}
