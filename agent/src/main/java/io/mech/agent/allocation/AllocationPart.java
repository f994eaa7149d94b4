package io.mech.agent.allocation;

import io.mech.agent.options.Option;
import io.mech.agent.runtime.Console;
import io.mech.agent.runtime.Part;
import io.mech.agent.runtime.PartContext;
import io.mech.agent.runtime.PartSpec;
import io.mech.exporter.AllocationFamilies;
import io.mech.exporter.MetricFamilies;
import io.mech.probes.allocation.AllocationProbe;
import io.mech.probes.allocation.AllocationSnapshot;
import io.mech.probes.allocation.ThreadAllocation;
import io.mech.report.Columns;
import io.mech.report.Json;
import io.mech.report.ReportRow;
import io.mech.report.Section;
import java.util.ArrayList;
import java.util.List;

/**
 * The allocation probe as a {@link Part}: how fast the JVM allocated while watched, and which of
 * the host's threads allocated most. The first part added as one package of its own and one line
 * in the list of parts.
 */
public final class AllocationPart implements Part {

    /** Starts early: it needs neither JFR nor another part. */
    public static final class Spec implements PartSpec.Starter {
        public static final Option<Boolean> ON = Option.onOff("probes.allocation", "off",
            "the allocation probe: how fast the JVM allocates and which threads allocate most, from HotSpot's per-thread counters");
        public static final Option<Long> EVERY = Option.duration("probes.allocation.every", "1s", Option.Bounds.from("100ms"),
            "time between two readings of every thread's allocation counter");

        public static final PartSpec PART = new PartSpec("allocation", List.of(ON, EVERY), PartSpec.Stage.EARLY, false, null,
            new Spec());

        private Spec() {
        }

        /** Starts the part; the spec itself is the starter, not a lambda, for premain's sake (see {@link PartSpec.Starter}). */
        @Override
        public Part start(final PartContext context) throws Exception {
            final AllocationProbe probe = AllocationProbe.start(context.options().get(EVERY) / 1_000_000, Console.WARNINGS);
            try {
                return new AllocationPart(probe);
            } catch (final OutOfMemoryError full) {
                // mech starts the part again once the heap has room: this probe's thread must not run beside the next
                probe.close();
                throw full;
            }
        }
    }

    private final AllocationProbe probe;

    private AllocationPart(final AllocationProbe probe) {
        this.probe = probe;
    }

    @Override
    public String name() {
        return "allocation";
    }

    @Override
    public List<MetricFamilies> families() {
        return List.of(new AllocationFamilies(probe::snapshot));
    }

    @Override
    public Section section() {
        final AllocationSnapshot now = probe.snapshot();
        final List<String> lines = new ArrayList<>();
        final List<ReportRow> rows = new ArrayList<>();
        if (now.checks() < 2) {
            lines.add("allocation: not watched long enough to tell (one reading of the counters)");
            return new Section("allocation", lines, rows);
        }
        final StringBuilder line = new StringBuilder("allocation: ").append(bytes(now.meanRate())).append("/s over ")
            .append(Columns.fixed(now.watchedNanos() / 1e9, 1)).append(" s (").append(bytes(now.bytes())).append(" in all, mech's own included)");
        String separator = "; most by ";
        for (final ThreadAllocation thread : now.top()) {
            line.append(separator).append(thread.thread()).append(' ').append(bytes(thread.bytes()));
            if (now.bytes() > 0) {
                line.append(" (").append(Columns.fixed(100.0 * thread.bytes() / now.bytes(), 0)).append("%)");
            }
            separator = ", ";
            rows.add(new ThreadRow(thread, now.watchedNanos()));
        }
        lines.add(line.toString());
        return new Section("allocation", lines, rows);
    }

    /** A byte count as people read it: B, KiB, MiB or GiB, three significant figures. */
    static String bytes(final double bytes) {
        final String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return Columns.fixed(value, value >= 100 || unit == 0 ? 0 : value >= 10 ? 1 : 2) + " " + units[unit];
    }

    /** One of the threads that allocated most. */
    record ThreadRow(ThreadAllocation thread, long watchedNanos) implements ReportRow {
        @Override
        public void writeTo(final Json json) {
            json.field("thread", thread.thread()).field("bytes", thread.bytes())
                .field("bytes_per_second", watchedNanos == 0 ? 0.0 : thread.bytes() * 1e9 / watchedNanos)
                .field("alive", thread.alive());
        }
    }
}
