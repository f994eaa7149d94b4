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

/** mech's own CPU time as a {@link Part}: always on, so that what mech costs is never hidden. */
final class SelfCpuPart implements Part {

    /** The threads a report line names, the busiest first. */
    private static final int NAMED = 4;

    private final SelfCpu cpu;
    private final long startNanos;

    /**
     * @param cpu        mech's threads' CPU time, sampled once {@code mech-start} is done
     * @param startNanos when mech started, for the share of one core
     */
    SelfCpuPart(final SelfCpu cpu, final long startNanos) {
        this.cpu = cpu;
        this.startNanos = startNanos;
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
