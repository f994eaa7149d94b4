package io.mech.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class JfrEventsBenchTest {

    @Test
    void countsTheTypeTableLeavingOutConstantPoolsMetadataAndTypesWithNone() {
        final String summary = String.join("\n",
            "",
            " Version: 2.1",
            " Chunks: 1",
            " Start: 2026-11-24 06:21:04 (UTC)",
            " Duration: 6 s",
            "",
            " Event Type                                   Count  Size (bytes) ",
            "==================================================================",
            " jdk.BooleanFlag                                536         15846",
            " jdk.CheckPoint                                  27         35973",
            " jdk.Metadata                                     1         81234",
            " jdk.ThreadPark                                   9           400",
            " jdk.ZUnmap                                       0             0",
            "");
        assertEquals(Map.of("jdk.BooleanFlag", 536L, "jdk.ThreadPark", 9L), JfrEventsBench.counts(summary));
    }
}
