package io.mech.agent.causes;

import io.mech.agent.hiccup.HiccupPart;
import io.mech.agent.options.JfrWhen;
import io.mech.agent.options.Option;
import io.mech.agent.runtime.JfrDemand;
import io.mech.agent.runtime.Offers;
import io.mech.agent.runtime.Part;
import io.mech.agent.runtime.PartContext;
import io.mech.agent.runtime.PartSpec;
import io.mech.exporter.CauseFamilies;
import io.mech.exporter.CgroupFamilies;
import io.mech.exporter.MetricFamilies;
import io.mech.exporter.UnmeteredFamilies;
import io.mech.exporter.jfr.HiccupEvents;
import io.mech.hiccup.HiccupRecorder;
import io.mech.hiccup.UnmeteredStops;
import io.mech.hiccup.VmCounters;
import io.mech.hiccup.cause.AllocationStalls;
import io.mech.hiccup.cause.Attribution;
import io.mech.hiccup.cause.Cause;
import io.mech.hiccup.cause.CauseTotals;
import io.mech.hiccup.cause.HiccupCauses;
import io.mech.probes.profiler.TtspCulprits;
import io.mech.report.CauseSummary;
import io.mech.report.Columns;
import io.mech.report.Section;
import io.mech.report.Unmetered;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordingStream;

/**
 * The attribution of the recorder's stalls to their causes as a {@link Part}: it reads the
 * recorder (whose stalls carry HotSpot's counters) and the control JVM's stalls that the hiccup
 * part offers, mech's own timed VM operations, and, once the stream opens, JFR's GC,
 * VM-operation, safepoint and allocation-stall events. Its findings are the rows of the report's
 * cause table, the time-to-safepoint row with the culprits the profiler offers when it samples them.
 *
 * <p>Threads: started on {@code mech-start}; scrapes and the report thread read the causes'
 * totals, which {@link HiccupCauses} publishes under its own lock. Its fields are final but
 * {@link #sampledTtspNanos}, whose contract is its own.
 */
public final class CausesPart implements Part {

    /**
     * Starts with the recorder, on HotSpot's counters; subscribes to mech's JFR stream once it
     * opens, before it records, so that its subscriptions see every event.
     */
    public static final class Spec implements PartSpec.Starter {
        public static final Option<Boolean> ON = Option.onOff("hiccup.causes", "on",
            "attribute each stall to gc, safepoint, ttsp (time to safepoint), mech, throttled, runqueue, steal, paging, frozen, "
                + "os or unknown: from HotSpot's counters and the kernel's from the first interval, refined by JFR (names of "
                + "collections and VM operations, ZGC's allocation stalls)");
        public static final Option<JfrWhen> JFR = Option.choice("hiccup.causes.jfr", JfrWhen.class, "demand",
            "when the causes read JFR: on, from the host's first second; demand, from the first stall of 10 ms or more the "
                + "counters cannot name (unknown, or a VM operation), at once under ZGC or Shenandoah or without the counters, and whenever "
                + "another part opens JFR (the lock probe, at the first contention); off, never");

        public static final PartSpec PART = new PartSpec("causes", List.of(ON, JFR), List.of(HiccupPart.Spec.ON), PartSpec.Stage.EARLY, false,
            "causes come from HotSpot's counters alone: collections and VM operations are not named", new Spec());

        private Spec() {
        }

        /** Starts the part; the spec itself is the starter, not a lambda, for premain's sake (see {@link PartSpec.Starter}). */
        @Override
        public Part start(final PartContext context) throws Exception {
            return CausesPart.start(context);
        }
    }

    /**
     * The least time to safepoint, while the culprits were sampled, whose row names culprits: the
     * time the fewest samples that name one stand for (ten, at a sample every 10 ms of CPU). Below
     * it the stalls are too few to blame a method for, and the samples were mostly taken in the
     * short windows every JVM has. Stalls from before the sampling began do not count: a kernel
     * whose set-up zeroed a large array held one safepoint 190 ms, which no sample saw.
     */
    static final long CULPRIT_FLOOR_NANOS = 100_000_000L;

    /**
     * The shortest part of a stall the counters leave unnamed that starts JFR on demand: a second and more
     * of CPU and tens of MiB buy the names of the stalls after it, worth it for stalls a user
     * looks into, not for the few milliseconds of an operation a busy machine stretched.
     */
    static final long DEMAND_NANOS = 10_000_000L;

    private final HiccupCauses causes;
    private final HiccupRecorder recorder;
    private final Offers offers;
    /** The value of {@link Spec#JFR}. */
    private final JfrWhen jfr;
    /** Set once the part subscribed to mech's JFR stream, on the thread that opened it; read by the report thread. */
    private volatile boolean subscribed;
    /**
     * Time-to-safepoint stall time since the culprits' sampling began: written by whichever thread
     * attributes (the attributing thread, the log thread, the stop), always under the causes'
     * lock, so one at a time; read by the report thread.
     */
    private volatile long sampledTtspNanos;

    private CausesPart(final HiccupCauses causes, final HiccupRecorder recorder, final Offers offers, final JfrWhen jfr) {
        this.causes = causes;
        this.recorder = recorder;
        this.offers = offers;
        this.jfr = jfr;
    }

    /** Adds a time-to-safepoint stall that began once the culprits were sampled; called under the causes' lock. */
    private void sampled(final Attribution attribution) {
        if (attribution.cause() == Cause.TTSP && attribution.startNanos() / 1_000_000 >= offers.ttspSampledSince()) {
            sampledTtspNanos += attribution.lengthNanos();
        }
    }

    /** @return the part; null without a recorder to attribute (the hiccup part did not start) */
    private static Part start(final PartContext context) {
        final HiccupRecorder recorder = context.offers().recorder();
        if (recorder == null) {
            return null;
        }
        // Started last: a start a full heap cuts short is made again once it has room, and must leave
        // no attributing thread behind on the recorder's queue, which takes one consumer.
        final HiccupCauses causes = HiccupCauses.of(recorder, context.offers().ownOperations(), context.offers().controlStalls());
        causes.addListener(new HiccupEvents());
        final CausesPart part = new CausesPart(causes, recorder, context.offers(), context.options().get(Spec.JFR));
        causes.addListener(part::sampled);
        context.offers().wantTtspCulprits();
        if (part.jfr == JfrWhen.DEMAND) {
            final JfrDemand demand = context.offers().jfrDemand();
            final String now = needsJfrFromTheStart(recorder.counters());
            if (now != null) {
                demand.demand(now);
            } else {
                causes.addListener(attribution -> {
                    // the portions, not the main cause: on a busy machine the wait for a core after a VM operation can outweigh it
                    final long unnamed = attribution.portions().get(Cause.UNKNOWN) + attribution.portions().get(Cause.SAFEPOINT);
                    if (unnamed >= DEMAND_NANOS && demand.reason() == null) {
                        demand.demand("a " + Columns.fixed(attribution.lengthNanos() / 1e6, 1) + " ms stall, " + Columns.fixed(unnamed / 1e6, 1)
                            + " ms of it unnamed by the counters (unknown or a VM operation)");
                    }
                });
            }
        }
        causes.start();
        return part;
    }

    /** Why the causes need JFR from the first second whatever the stalls: null when the counters will do until one does. */
    private static String needsJfrFromTheStart(final VmCounters counters) {
        if (counters == null) {
            return "HotSpot's counters are unreadable";
        }
        // HotSpot's names: "Z concurrent cycle pauses" (17, 21), "ZGC minor collection pauses" (25), "Shenandoah partial"
        for (final String collector : counters.collectors()) {
            if (collector.startsWith("Z")) {
                return "ZGC, whose allocation stalls JFR alone sees";
            }
            if (collector.startsWith("Shenandoah")) {
                return "Shenandoah, whose collector's counter runs over concurrent cycles too: JFR tells its pauses";
            }
        }
        return null;
    }

    @Override
    public boolean wantsJfrAtOnce() {
        return jfr == JfrWhen.ON;
    }

    @Override
    public String name() {
        return "causes";
    }

    @Override
    public List<MetricFamilies> families() {
        return List.of(new CauseFamilies(causes::totals), new CgroupFamilies(causes::throttling, recorder::meterRunQueueNanos),
            new UnmeteredFamilies(recorder::unmetered));
    }

    /** None: the causes are the report's second table ({@link #causes}). */
    @Override
    public Section section() {
        return null;
    }

    @Override
    public List<CauseSummary> causes() {
        final CauseTotals totals = causes.totals();
        final List<CauseSummary> rows = new ArrayList<>(Cause.values().length);
        for (final Cause cause : Cause.values()) {
            if (cause == Cause.TTSP && totals.count(cause) > 0) {
                rows.add(withCulprits(cause, totals));
            } else {
                rows.add(new CauseSummary(cause.tag(), totals.nanos(cause), totals.count(cause), totals.longest(cause),
                    totals.details(cause)));
            }
        }
        return rows;
    }

    @Override
    public Unmetered unmetered() {
        final UnmeteredStops before = recorder.unmetered();
        return before == null ? Unmetered.NONE : new Unmetered(before.vmMillis(), before.safepoints(), before.collections(),
            before.gcNanos(), before.safepointNanos(), before.ttspNanos());
    }

    /** The JFR tier: names collections and operations, and adds ZGC's allocation stalls. */
    @Override
    public void subscribe(final RecordingStream stream) {
        if (jfr != JfrWhen.OFF) {
            causes.listenTo(stream);
            subscribed = true;
        }
    }

    @Override
    public List<String> notes() {
        final CauseTotals totals = causes.totals();
        final List<String> notes = new ArrayList<>(8);
        if (!totals.counters()) {
            notes.add("HotSpot's counters are not readable (-XX:-UsePerfData?): stalls before JFR records have an unknown cause");
        }
        final AllocationStalls memory = totals.allocationStalls();
        if (memory.count() > 0) {
            notes.add("threads waited for memory (allocation stalls): " + memory.count() + (memory.count() == 1 ? " stall, " : " stalls, ")
                + Columns.fixed(memory.nanos() / 1e6, 3) + " ms in all, longest " + Columns.fixed(memory.longest() / 1e6, 3) + " ms, in "
                + memory.threads() + (memory.threads() == 1 ? " thread" : " threads"));
        }
        final String demanded = offers.jfrDemand().reason();
        if (jfr == JfrWhen.DEMAND && !subscribed) {
            notes.add(demanded == null
                ? "JFR not started, for no stall needed it: collections are named by their collector, VM operations not at all "
                    + "(hiccup.causes.jfr=on records from the first second)"
                : "JFR asked for, not recording yet: " + demanded);
        } else if (demanded != null && subscribed) {
            notes.add("JFR started on demand: " + demanded);
        }
        if (totals.dropped() > 0) {
            notes.add(totals.dropped() + " stalls not attributed, counted as unknown: the attributing thread fell behind, or had not "
                + "started (a heap full from the host's first line holds mech's start back; the queue keeps 2 s of stalls)");
        }
        notes.addAll(OsAdvice.lines(totals, causes.throttling()));
        return notes;
    }

    /**
     * The time-to-safepoint row with the methods the profiler sampled while safepoints waited,
     * when it samples them; without them otherwise.
     */
    private CauseSummary withCulprits(final Cause cause, final CauseTotals totals) {
        final TtspCulprits found = offers.ttspCulprits();
        final boolean enough = sampledTtspNanos >= CULPRIT_FLOOR_NANOS;
        final List<CauseSummary.Culprit> culprits = new ArrayList<>(found.culprits().size());
        for (final TtspCulprits.Culprit culprit : enough ? found.culprits() : List.<TtspCulprits.Culprit>of()) {
            culprits.add(new CauseSummary.Culprit(culprit.method(), culprit.in(), culprit.samples(), found.share(culprit)));
        }
        final String note = found.unavailable() != null ? found.unavailable()
            : found == TtspCulprits.NONE ? ""
            : !enough ? "none named: under " + CULPRIT_FLOOR_NANOS / 1_000_000 + " ms of time to safepoint while sampled, too little to blame "
                + "a method for"
            : culprits.isEmpty() ? "none named: " + found.samples() + " samples of running threads inside the windows, too few in any one method"
            : "";
        return new CauseSummary(cause.tag(), totals.nanos(cause), totals.count(cause), totals.longest(cause), totals.details(cause),
            culprits, found.samples(), note);
    }

    /** Waits, until the deadline at most, for the JFR events of the last stalls. */
    @Override
    public void settle(final long deadline) {
        causes.settle(deadline);
    }

    /** Stops the attributing thread; the recorder's close has written the last interval's tagged lines. */
    @Override
    public void close() {
        causes.close();
    }
}
