package io.mech.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The time-to-safepoint row's culprits, or why there are none, in the JSON and text reports. */
class CauseCulpritsTest {

    @Test
    void rendersTheTimeToSafepointCulpritsOrWhyThereAreNone() {
        final CauseSummary named = new CauseSummary("ttsp", 240_000_000, 3, 90_000_000, Map.of("time to safepoint", 3L),
            List.of(new CauseSummary.Culprit("app.Copier.copy", "java.lang.System.arraycopy", 87, 0.87)), 100, "");
        final CauseSummary none = new CauseSummary("ttsp", 4_000_000, 1, 4_000_000, Map.of(), List.of(), 0, "not sampled");
        final String json = JsonReport.render(new Report(1, 1, List.of(), List.of(named, none), Unmetered.NONE, List.of(), List.of()));
        assertTrue(json.contains("\"details\":{\"time to safepoint\":3},\"culprits\":[{\"method\":\"app.Copier.copy\","
            + "\"in\":\"java.lang.System.arraycopy\",\"samples\":87,\"share\":0.87}],\"culprit_samples\":100}"), json);
        assertTrue(json.contains("\"details\":{},\"culprit_note\":\"not sampled\"}"), json);
        final String text = TextReport.render(new Report(1, 1,
            List.of(new HiccupSummary("host", 1, 1, 1, 1, 1, 1, 1, 3, 240_000_000, "", "")), List.of(named), Unmetered.NONE, List.of(), List.of()));
        assertTrue(text.contains("time to safepoint x3; culprit app.Copier.copy (in java.lang.System.arraycopy) 87% of 100 samples\n"), text);
    }
}
