package io.mech.agent.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonReportTest {

    @Test
    void rendersMillisecondsAndEscapesText() {
        final Report report = new Report(42, 1500,
            List.of(new HiccupSummary("host", 70_000, 96_000, 176_000, 2_245_000, 300_417_000, 3131, 4, 2, 301_500_000, "/tmp/a \"b\".hlog", "")),
            List.of(new CauseSummary("gc", 250_000_000, 2, 200_000_000, Map.of("G1New (G1 Evacuation Pause)", 2L))),
            List.of(new Section("locks", List.of("monitor contention on A"),
                List.of(row()))),
            List.of("line\nbreak"));
        assertEquals("{\"pid\":42,\"run_ms\":1500,\"hiccups\":[{\"jvm\":\"host\",\"p50_ms\":0.070,\"p90_ms\":0.096,"
            + "\"p99_ms\":0.176,\"p99_9_ms\":2.245,\"max_ms\":300.417,\"samples\":3131,\"intervals\":4,\"stalls\":2,\"stall_ms\":301.500,"
            + "\"log\":\"/tmp/a \\\"b\\\".hlog\",\"log_problem\":\"\"}],\"causes\":[{\"cause\":\"gc\",\"stall_ms\":250.000,\"stalls\":2,"
            + "\"longest_ms\":200.000,\"details\":{\"G1New (G1 Evacuation Pause)\":2}}],\"sections\":{\"locks\":{\"lines\":[\"monitor contention on A\"],"
            + "\"rows\":[{\"class\":\"A\",\"count\":3,\"share\":0.250000,\"padded\":false}]}},\"notes\":[\"line\\u000abreak\"]}\n", JsonReport.render(report));
    }

    private static Map<String, Object> row() {
        final Map<String, Object> row = new LinkedHashMap<>();
        row.put("class", "A");
        row.put("count", 3L);
        row.put("share", 0.25);
        row.put("padded", false);
        return row;
    }
}
