package io.mech.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The text and JSON of one fixed report, compared whole with files kept beside the test: a change
 * of format shows as a diff of those files, reviewed like code. The report holds what the
 * renderers must get right: two JVMs (one with a stall count and a log problem), causes with
 * details, the stops before the meter, a section with typed rows (an unknown figure left out, text that needs escaping) and
 * an empty one, and a note.
 */
class ReportGoldenTest {

    /** A row as a part declares one: a record of typed figures. */
    record SiteRow(String lockClass, long count, long totalNanos, double share, boolean padded) implements ReportRow {
        @Override
        public void writeTo(final Json json) {
            json.field("class", lockClass).field("count", count).millis("total_ms", totalNanos)
                .fieldIfKnown("share", share).field("padded", padded);
        }
    }

    static Report fixed() {
        final Map<String, Long> details = new LinkedHashMap<>();
        details.put("G1New (G1 Evacuation Pause)", 2L);
        details.put("G1Full (System.gc())", 1L);
        return new Report(42, 1500,
            List.of(new HiccupSummary("host", 70_000, 96_000, 176_000, 2_245_000, 300_417_000, 3131, 4, 3, 301_500_000,
                    "/tmp/a \"b\".hlog", ""),
                new HiccupSummary("control", 60_000, 80_000, 100_000, 120_000, 140_000, 2900, 4, -1, -1, "",
                    "cannot write /nonexistent/c.hlog")),
            List.of(new CauseSummary("gc", 250_000_000, 3, 200_000_000, details),
                new CauseSummary("os", 51_500_000, 0, 0, Map.of())),
            new Unmetered(412, 5, 3, 190_300_000, 2_100_000, 400_000),
            List.of(new Section("locks", List.of("monitor contention on A: 3 blocked, 1.2 ms"),
                    List.of(new SiteRow("A", 3, 1_234_567, 0.25, false), new SiteRow("B\u2028C\n", 1, 400, Double.NaN, true))),
                new Section("queues", List.of(), List.of())),
            List.of("metrics: http://127.0.0.1:9464/metrics"));
    }

    @Test
    void textIsTheGoldenFile() throws IOException {
        assertEquals(golden("report.txt"), TextReport.render(fixed()));
    }

    @Test
    void jsonIsTheGoldenFile() throws IOException {
        assertEquals(golden("report.json"), JsonReport.render(fixed()));
    }

    private static String golden(final String name) throws IOException {
        try (InputStream in = ReportGoldenTest.class.getResourceAsStream("/golden/" + name)) {
            if (in == null) {
                throw new IOException("no golden file " + name + " on the test class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
