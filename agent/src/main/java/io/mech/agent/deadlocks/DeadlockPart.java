package io.mech.agent.deadlocks;

import io.mech.agent.options.Option;
import io.mech.agent.runtime.Console;
import io.mech.agent.runtime.Part;
import io.mech.agent.runtime.PartContext;
import io.mech.agent.runtime.PartSpec;
import io.mech.exporter.DeadlockFamilies;
import io.mech.exporter.MetricFamilies;
import io.mech.probes.deadlocks.Deadlock;
import io.mech.probes.deadlocks.DeadlockProbe;
import io.mech.probes.deadlocks.DeadlockSnapshot;
import io.mech.probes.deadlocks.Waiter;
import io.mech.report.Json;
import io.mech.report.ReportRow;
import io.mech.report.Section;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The deadlock probe as a {@link Part}: each cycle of threads stuck on each other's locks, once. */
public final class DeadlockPart implements Part {

    /** Starts early: it needs neither JFR nor another part. */
    public static final class Spec implements PartSpec.Starter {
        public static final Option<Boolean> ON = Option.onOff("probes.deadlocks", "off",
            "the deadlock probe: threads waiting for each other's monitors or java.util.concurrent locks, found as jstack finds them");
        public static final Option<Long> EVERY = Option.duration("probes.deadlocks.every", "10s", Option.Bounds.from("1s"),
            "time between checks; each is one VM operation (a safepoint) that walks the threads' locks");

        public static final PartSpec PART = new PartSpec("deadlocks", List.of(ON, EVERY), PartSpec.Stage.EARLY, false, null,
            new Spec());

        private Spec() {
        }

        /** Starts the part; the spec itself is the starter, not a lambda, for premain's sake (see {@link PartSpec.Starter}). */
        @Override
        public Part start(final PartContext context) throws Exception {
            final DeadlockProbe probe = DeadlockProbe.start(context.options().get(EVERY) / 1_000_000, Console.WARNINGS);
            try {
                return new DeadlockPart(probe);
            } catch (final OutOfMemoryError full) {
                // mech starts the part again once the heap has room: this probe's thread must not run beside the next
                probe.close();
                throw full;
            }
        }
    }

    private final DeadlockProbe probe;

    private DeadlockPart(final DeadlockProbe probe) {
        this.probe = probe;
    }

    @Override
    public String name() {
        return "deadlocks";
    }

    @Override
    public List<MetricFamilies> families() {
        return List.of(new DeadlockFamilies(probe::snapshot));
    }

    @Override
    public Section section() {
        final DeadlockSnapshot now = probe.snapshot();
        final List<String> lines = new ArrayList<>();
        final List<ReportRow> rows = new ArrayList<>();
        for (final Deadlock deadlock : now.deadlocks()) {
            final StringBuilder line = new StringBuilder("deadlock of ").append(deadlock.waiters().size())
                .append(" threads, found ").append(Instant.ofEpochMilli(deadlock.firstSeenMillis())).append(": ");
            String separator = "";
            for (final Waiter waiter : deadlock.waiters()) {
                line.append(separator).append(waiter.thread()).append(" waits for ").append(waiter.lock())
                    .append(" held by ").append(waiter.owner()).append(waiter.at().isEmpty() ? "" : " at " + waiter.at());
                separator = "; ";
                rows.add(new WaiterRow(waiter, deadlock.firstSeenMillis()));
            }
            lines.add(line.append(". Take the locks in one order everywhere, or with tryLock and a timeout").toString());
        }
        return new Section("deadlocks", lines, rows);
    }

    /** One thread of a deadlock, with when the deadlock was found. */
    record WaiterRow(Waiter waiter, long foundMillis) implements ReportRow {
        @Override
        public void writeTo(final Json json) {
            json.field("thread", waiter.thread()).field("lock", waiter.lock()).field("owner", waiter.owner())
                .field("at", waiter.at()).field("found", Instant.ofEpochMilli(foundMillis).toString());
        }
    }
}
