package io.mech.exporter.jfr;

import io.mech.probes.locks.JucContention;
import io.mech.probes.locks.LockSite;
import io.mech.probes.locks.LockSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import jdk.jfr.FlightRecorder;

/**
 * Commits a {@link LockContentionEvent} for each of the {@value #WORST} locks with the most
 * blocked time in each period. The counts are differences between two lock snapshots, so the
 * events of one period add up to what the probe saw in it.
 */
public final class LockContentionEvents implements AutoCloseable {

    /** Events per period at most: the worst locks, not every lock. */
    static final int WORST = 5;

    private final Supplier<LockSnapshot> snapshots;
    private final Runnable hook = this::commitWorst;
    /** Totals at the last period, by row key: blocks, then blocked nanoseconds. Only JFR's periodic thread touches it. */
    private final Map<String, long[]> last = new HashMap<>();

    private LockContentionEvents(final Supplier<LockSnapshot> snapshots) {
        this.snapshots = snapshots;
    }

    /**
     * Registers the periodic event.
     *
     * @param snapshots the running lock probe's snapshots
     * @return the registration, to close when the probe stops
     */
    public static LockContentionEvents register(final Supplier<LockSnapshot> snapshots) {
        final LockContentionEvents events = new LockContentionEvents(snapshots);
        FlightRecorder.addPeriodicEvent(LockContentionEvent.class, events.hook);
        return events;
    }

    private void commitWorst() {
        final LockSnapshot now = snapshots.get();
        final List<LockContentionEvent> period = new ArrayList<>();
        for (final LockSite site : now.sites()) {
            final String kind = site.kind().name().toLowerCase(Locale.ROOT);
            add(period, kind, site.lockClass(), site.callSite(), site.count(), site.totalNanos(), site.maxNanos());
        }
        for (final JucContention c : now.belowThreshold()) {
            add(period, "juc_counted", c.lockClass() + (c.mode().isEmpty() ? "" : " (" + c.mode() + ")"), "",
                c.count(), c.totalNanos(), c.maxNanos());
        }
        period.sort((a, b) -> Long.compare(b.blockedTime, a.blockedTime));
        for (int i = 0; i < period.size() && i < WORST; i++) {
            period.get(i).commit();
        }
    }

    private void add(final List<LockContentionEvent> period, final String kind, final String lockClass, final String callSite,
                     final long blocks, final long nanos, final long longest) {
        final long[] before = last.put(kind + '\n' + lockClass + '\n' + callSite, new long[] {blocks, nanos});
        final long newBlocks = blocks - (before == null ? 0 : before[0]);
        if (newBlocks > 0) {
            final LockContentionEvent event = new LockContentionEvent();
            event.kind = kind;
            event.lockClass = lockClass;
            event.callSite = callSite;
            event.blocks = newBlocks;
            event.blockedTime = nanos - (before == null ? 0 : before[1]);
            event.longestSinceStart = longest;
            period.add(event);
        }
    }

    @Override
    public void close() {
        FlightRecorder.removePeriodicEvent(hook);
    }
}
