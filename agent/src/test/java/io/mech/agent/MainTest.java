package io.mech.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MainTest {

    @Test
    void optionTableListsEveryKey() {
        final String table = Main.optionTable();
        for (final Option option : Option.all()) {
            assertTrue(table.contains("| `" + option.key + "` |"), option.key);
        }
    }

    @Test
    void unknownCommandAndBadPidFail() {
        assertEquals(2, Main.run(new String[] {"frobnicate"}));
        assertEquals(2, Main.run(new String[] {"attach", "notapid"}));
        assertEquals(1, Main.run(new String[] {"attach", Long.toString(Long.MAX_VALUE)}));
    }
}
