package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LabelWordsTest {

    @Test
    void wordsAreLowerCaseJoinedByOneUnderscore() {
        assertEquals("monitor_enter", LabelWords.of("Monitor Enter"));
        assertEquals("false_sharing", LabelWords.of("false sharing"));
        assertEquals("cross_object", LabelWords.of("cross-object"));
        assertEquals("start_deferred_locks", LabelWords.of("  start deferred  locks "));
        assertEquals("report", LabelWords.of("report"));
        assertEquals("", LabelWords.of(" - "));
    }
}
