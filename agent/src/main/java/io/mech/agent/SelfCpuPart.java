package io.mech.agent;

import io.mech.exporter.MetricFamilies;
import io.mech.exporter.SelfCpuFamilies;
import io.mech.report.Json;
import io.mech.report.ReportRow;
import io.mech.report.Section;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/** mech's own CPU time as a {@link Part}: always on, so that what mech costs is never hidden. */
final class SelfCpuPart implements Part {

    /** The threads a report line names, the busiest first. */
    private static final int NAMED = 4;

    private final SelfCpu cpu;
    private final long startNanos;
    private final LongSupplier waitedForRoom;

    /**
     * @param cpu           mech's threads' CPU time, sampled once {@code mech-start} is done
     * @param startNanos    when mech started, for the share of one core
     * @param waitedForRoom how long, in nanoseconds, mech's start has waited for room in a full heap
     */
    SelfCpuPart(final SelfCpu cpu, final long startNanos, final LongSupplier waitedForRoom) {
        this.cpu = cpu;
        this.startNanos = startNanos;
        this.waitedForRoom = waitedForRoom;
    }

    /** Says when mech's start waited for the host's heap: nothing was measured meanwhile. */
    @Override
    public List<String> notes() {
        final long waited = waitedForRoom.getAsLong();
        return waited == 0 ? List.of() : List.of(String.format(Locale.ROOT,
            "mech's start waited %.1f s for room in the host's full heap: what started after it measured nothing before", waited / 1e9));
    }

    @Override
    public String name() {
        return "self-cpu";
    }

    @Override
    public List<MetricFamilies> families() {
        return List.of(new SelfCpuFamilies(cpu::byThread));
    }

    /** Empty in a JVM that ended before mech had started everything: measuring then would cost its exit. */
    @Override
    public Section section() {
        if (!cpu.sampled()) {
            return new Section("self", List.of(), List.of());
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
        final StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "mech's own CPU: %.3f s, %.2f%% of one core",
            total / 1e9, 100.0 * total / Math.max(1, System.nanoTime() - startNanos)));
        for (int i = 0; i < Math.min(NAMED, busiest.size()); i++) {
            line.append(i == 0 ? ": " : ", ").append(busiest.get(i).getKey())
                .append(String.format(Locale.ROOT, " %.3f s", busiest.get(i).getValue() / 1e9));
        }
        return new Section("self", List.of(line.toString()), rows);
    }

    /** The CPU time one of mech's threads used. */
    record ThreadRow(String thread, long cpuNanos) implements ReportRow {
        @Override
        public void writeTo(final Json json) {
            json.field("thread", thread).field("cpu_s", cpuNanos / 1e9);
        }
    }
}
