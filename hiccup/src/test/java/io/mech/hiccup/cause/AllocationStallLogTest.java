package io.mech.hiccup.cause;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.hiccup.HiccupRecorder;
import io.mech.hiccup.HiccupSettings;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The log's {@code allocation-stall} lines: each thread's wait for memory in the interval its end
 * falls in, written only once JFR has delivered past the interval, and only for intervals JFR
 * recorded in. JFR is stood in for by feeding {@link JfrPauses} directly; the intervals lie a few
 * seconds in the past, so that neither the settling of the meter's stalls nor the horizon decides.
 */
class AllocationStallLogTest {

    private static final long MS = 1_000_000L;

    private HiccupRecorder recorder;
    private HiccupCauses causes;
    private JfrPauses jfr;
    /** The first interval's start, epoch milliseconds: 5 s ago. */
    private long t0;

    @BeforeEach
    void start() {
        // An hour-long interval: the recorder's own log thread closes none while a test runs.
        recorder = HiccupRecorder.start(new HiccupSettings(MS, 3_600_000 * MS, 0, 2 * MS, null), null, w -> { });
        causes = HiccupCauses.of(recorder, new OwnOperations(), null).start();
        jfr = new JfrPauses(-1);
        causes.listenTo(jfr);
        t0 = System.currentTimeMillis() - 5_000;
    }

    @AfterEach
    void stop() {
        causes.close();
        recorder.close();
    }

    @Test
    void eachStallIsInTheIntervalItEndsInOnceJfrDeliveredPastIt() {
        jfr.recordingSince(t0 * MS);
        causes.intervalClosed(t0, t0 + 1_000);
        causes.intervalClosed(t0 + 1_000, t0 + 2_000);
        jfr.allocationStall((t0 + 497) * MS, (t0 + 500) * MS, 11);
        jfr.allocationStall((t0 + 996) * MS, (t0 + 1_000) * MS, 12);
        jfr.allocationStall((t0 + 1_495) * MS, (t0 + 1_500) * MS, 11);
        jfr.delivered((t0 + 1_000) * MS);

        final List<Histogram> first = drained(causes, false);
        assertEquals(List.of(t0), starts(first), "only the first interval is final: " + describe(first));
        final Histogram firstStalls = tagged(first, HiccupCauses.ALLOCATION_STALL_TAG);
        assertEquals(1, firstStalls.getTotalCount(), "the stall ending at 1,000 ms is the second interval's");
        assertEquals(3 * MS, firstStalls.getMaxValue(), 3 * MS / 1000);

        jfr.allocationStall((t0 + 1_790) * MS, (t0 + 1_800) * MS, 13);
        jfr.delivered((t0 + 2_100) * MS);
        final List<Histogram> second = drained(causes, false);
        assertEquals(List.of(t0 + 1_000), starts(second), describe(second));
        final Histogram secondStalls = tagged(second, HiccupCauses.ALLOCATION_STALL_TAG);
        assertEquals(3, secondStalls.getTotalCount(), describe(second));
        assertEquals(10 * MS, secondStalls.getMaxValue(), 10 * MS / 1000);
        assertEquals(4 * MS, secondStalls.getMinValue(), 4 * MS / 1000);
    }

    @Test
    void anIntervalJfrDidNotRecordInHasNoLineAndAQuietOneAnEmptyLine() {
        jfr.recordingSince((t0 + 1_500) * MS);
        causes.intervalClosed(t0, t0 + 1_000);
        causes.intervalClosed(t0 + 1_000, t0 + 2_000);
        jfr.delivered((t0 + 2_000) * MS);
        final List<Histogram> written = drained(causes, false);
        assertEquals(List.of(t0, t0 + 1_000), starts(written), describe(written));
        final List<Long> withLine = new ArrayList<>();
        for (final Histogram h : written) {
            if (HiccupCauses.ALLOCATION_STALL_TAG.equals(h.getTag())) {
                withLine.add(h.getStartTimeStamp());
                assertEquals(0, h.getTotalCount(), describe(written));
            }
        }
        assertEquals(List.of(t0 + 1_000), withLine, "only the interval JFR recorded in: " + describe(written));
    }

    @Test
    void withoutJfrRecordingNoIntervalWaitsAndNoneHasALine() {
        causes.intervalClosed(t0, t0 + 1_000);
        final List<Histogram> written = drained(causes, false);
        assertEquals(List.of(t0), starts(written), describe(written));
        assertTrue(written.stream().noneMatch(h -> HiccupCauses.ALLOCATION_STALL_TAG.equals(h.getTag())), describe(written));
    }

    @Test
    void aLateStallGoesToTheNextIntervalAndAtExitEveryStallIsLogged() {
        jfr.recordingSince(t0 * MS);
        causes.intervalClosed(t0, t0 + 1_000);
        jfr.delivered((t0 + 1_000) * MS);
        assertEquals(0, tagged(drained(causes, false), HiccupCauses.ALLOCATION_STALL_TAG).getTotalCount(),
            "the first interval is written with no stall");
        causes.intervalClosed(t0 + 1_000, t0 + 2_000);
        // Delivered after its interval was written: it is not lost, but counted in the next one.
        jfr.allocationStall((t0 + 800) * MS, (t0 + 900) * MS, 11);
        // Ends after the last interval closed: at exit it goes into the last one.
        jfr.allocationStall((t0 + 2_200) * MS, (t0 + 2_300) * MS, 11);
        final List<Histogram> rest = drained(causes, true);
        assertEquals(List.of(t0 + 1_000), starts(rest), describe(rest));
        assertEquals(2, tagged(rest, HiccupCauses.ALLOCATION_STALL_TAG).getTotalCount(), describe(rest));
        assertEquals(2, jfr.allocationStalls().count());
    }

    /** The distinct interval starts of the histograms written, in order. */
    /** What the causes write to the log, copied as written: the causes reuse each histogram once its call returns. */
    static List<Histogram> drained(final HiccupCauses causes, final boolean all) {
        final List<Histogram> written = new ArrayList<>();
        causes.drainFinished(all, h -> {
            final Histogram copy = h.copy();
            copy.setTag(h.getTag());
            copy.setStartTimeStamp(h.getStartTimeStamp());
            copy.setEndTimeStamp(h.getEndTimeStamp());
            written.add(copy);
        });
        return written;
    }

    private static List<Long> starts(final List<Histogram> written) {
        final List<Long> starts = new ArrayList<>();
        for (final Histogram h : written) {
            if (!starts.contains(h.getStartTimeStamp())) {
                starts.add(h.getStartTimeStamp());
            }
        }
        return starts;
    }

    private Histogram tagged(final List<Histogram> written, final String tag) {
        Histogram found = null;
        for (final Histogram h : written) {
            if (tag.equals(h.getTag())) {
                assertEquals(null, found, "one " + tag + " line per interval: " + describe(written));
                found = h;
            }
        }
        assertTrue(found != null, "no " + tag + " line: " + describe(written));
        return found;
    }

    private String describe(final List<Histogram> written) {
        final StringBuilder s = new StringBuilder("[");
        for (final Histogram h : written) {
            s.append(' ').append(h.getTag()).append('@').append(h.getStartTimeStamp() - t0).append("ms:").append(h.getTotalCount());
        }
        return s.append(" ]").toString();
    }
}
