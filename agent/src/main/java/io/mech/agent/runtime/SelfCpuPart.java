package io.mech.agent.runtime;

import io.mech.exporter.MetricFamilies;
import io.mech.exporter.SelfCpuFamilies;
import io.mech.hiccup.cause.OwnOperations;
import io.mech.report.Columns;
import io.mech.report.Json;
import io.mech.report.ReportRow;
import io.mech.report.Section;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * mech's own CPU time, and how long its own calls stopped the JVM, as a {@link Part}: always on,
 * so that what mech costs is never hidden.
 */
final class SelfCpuPart implements Part {

    /** The threads a report line names, the busiest first. */
    private static final int NAMED = 4;

    private final SelfCpu cpu;
    private final long startNanos;
    private final LongSupplier waitedForRoom;
    private final LongSupplier waitedForCalm;
    private final Supplier<List<OwnOperations.Stop>> stops;
    private final boolean meterBeforeMain;

    /**
     * @param cpu           mech's threads' CPU time, sampled once {@code mech-start} is done
     * @param startNanos    when mech started, for the share of one core
     * @param waitedForRoom how long, in nanoseconds, mech's start has waited for room in a full heap
     * @param waitedForCalm how long, in nanoseconds, its deferred start has waited for a heap once full to stay calm
     * @param stops         what mech's own calls (weaving, JFR's start) stopped the JVM for so far
     * @param meterBeforeMain whether the hiccup meter started before main, so that it measured through such a wait
     */
    SelfCpuPart(final SelfCpu cpu, final long startNanos, final LongSupplier waitedForRoom, final LongSupplier waitedForCalm,
                final Supplier<List<OwnOperations.Stop>> stops, final boolean meterBeforeMain) {
        this.cpu = cpu;
        this.startNanos = startNanos;
        this.waitedForRoom = waitedForRoom;
        this.waitedForCalm = waitedForCalm;
        this.stops = stops;
        this.meterBeforeMain = meterBeforeMain;
    }

    /** Says when mech's start waited for the host's heap: what started after the wait measured nothing before it. */
    @Override
    public List<String> notes() {
        final List<String> notes = new ArrayList<>(2);
        final long waited = waitedForRoom.getAsLong();
        if (waited > 0) {
            notes.add("mech's start waited " + Columns.fixed(waited / 1e9, 1) + " s for room in the host's full heap: "
                + (meterBeforeMain ? "the hiccup meter, started before main, measured throughout; " : "")
                + "what started after the wait measured nothing before it");
        }
        // under 0.1 s is the looks' own pace in a heap that was full once and has room since
        final long calm = waitedForCalm.getAsLong();
        if (calm >= 100_000_000L) {
            notes.add("the rest of mech's start (JFR, the probes' weaving, the virtual-thread meter) waited " + Columns.fixed(calm / 1e9, 1)
                + " s more, for the heap to keep room for " + HeapRoom.CALM_NANOS / 1_000_000_000L + " s: a class first initialised, or "
                + "woven, in a full heap is broken for the JVM's life, the host's use of it too");
        }
        return notes;
    }

    @Override
    public String name() {
        return "self-cpu";
    }

    @Override
    public List<MetricFamilies> families() {
        return List.of(new SelfCpuFamilies(cpu::byThread));
    }

    /** No CPU line in a JVM that ended before mech had started everything: measuring then would cost its exit. */
    @Override
    public Section section() {
        final String stopped = stopsLine(stops.get());
        if (!cpu.sampled()) {
            return new Section("self", stopped == null ? List.of() : List.of(stopped), List.of());
        }
        final Map<String, Long> byThread = cpu.byThread();
        final List<Map.Entry<String, Long>> busiest = new ArrayList<>(byThread.entrySet());
        busiest.sort(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()));
        long total = 0;
        final List<ReportRow> rows = new ArrayList<>();
        for (final Map.Entry<String, Long> thread : busiest) {
            total += thread.getValue();
            rows.add(new ThreadRow(thread.getKey(), thread.getValue()));
        }
        final StringBuilder line = new StringBuilder("mech's own CPU: ").append(Columns.fixed(total / 1e9, 3)).append(" s, ")
            .append(Columns.fixed(100.0 * total / Math.max(1, System.nanoTime() - startNanos), 2)).append("% of one core");
        for (int i = 0; i < Math.min(NAMED, busiest.size()); i++) {
            line.append(i == 0 ? ": " : ", ").append(busiest.get(i).getKey())
                .append(' ').append(Columns.fixed(busiest.get(i).getValue() / 1e9, 3)).append(" s");
        }
        return new Section("self", stopped == null ? List.of(line.toString()) : List.of(line.toString(), stopped), rows);
    }

    /**
     * @return how long each kind of mech's calls stopped the JVM, such as {@code mech's own stops:
     *         RetransformClasses x1: 1 safepoint, 7.10 ms}; null before any call
     */
    static String stopsLine(final List<OwnOperations.Stop> stops) {
        if (stops.isEmpty()) {
            return null;
        }
        final StringBuilder line = new StringBuilder("mech's own stops:");
        for (int i = 0; i < stops.size(); i++) {
            final OwnOperations.Stop stop = stops.get(i);
            line.append(i == 0 ? " " : "; ").append(stop.name()).append(" x").append(stop.calls()).append(": ");
            if (stop.nanos() < 0) {
                line.append("not timed, the JVM keeps no safepoint counters (-XX:-UsePerfData)");
            } else {
                line.append(stop.safepoints()).append(stop.safepoints() == 1 ? " safepoint, " : " safepoints, ")
                    .append(Columns.fixed(stop.nanos() / 1e6, 2)).append(" ms");
            }
        }
        return line.toString();
    }

    /** The CPU time one of mech's threads used. */
    record ThreadRow(String thread, long cpuNanos) implements ReportRow {
        @Override
        public void writeTo(final Json json) {
            json.field("thread", thread).field("cpu_s", cpuNanos / 1e9);
        }
    }
}
