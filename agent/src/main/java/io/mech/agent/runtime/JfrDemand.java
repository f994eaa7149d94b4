package io.mech.agent.runtime;

import java.util.function.Consumer;

/**
 * A part's request for mech's JFR stream when it has not opened after the host's first second:
 * the causes ask once a stall needs what JFR alone can tell. The first request wins; mech opens
 * the stream for it once every part has started, so that each subscribes before it records.
 *
 * <p>Threads: parts call {@link #demand} from any thread (the causes from their attributing
 * thread, under their lock: it must not block); {@code mech-start} calls {@link #arm} once. Both
 * meet under this object's monitor, and the opener runs under it, so it only starts a thread.
 */
public final class JfrDemand {

    /** Guarded by {@code this}: why the stream was first asked for; null before. */
    private String reason;
    /** Guarded by {@code this}: opens the stream, set once every part has started. */
    private Consumer<String> opener;

    /**
     * Asks for the stream; later requests change nothing.
     *
     * @param why what needs it, for the report
     */
    public synchronized void demand(final String why) {
        if (reason != null) {
            return;
        }
        reason = why;
        if (opener != null) {
            opener.accept(why);
        }
    }

    /** Hands over the opener, which runs at once for a request that came before; must not block. */
    synchronized void arm(final Consumer<String> open) {
        opener = open;
        if (reason != null) {
            open.accept(reason);
        }
    }

    /** @return why the stream was asked for; null when nothing asked */
    public synchronized String reason() {
        return reason;
    }
}
