package io.mech.hiccup;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HiccupSettingsTest {

    @Test
    void boundsAreNamedInTheMessage() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new HiccupSettings(10, 1_000_000_000L, 0, 2_000_000, null))
            .getMessage().contains("at least 1us"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new HiccupSettings(1_000_000, 1_000_000, 0, 2_000_000, null))
            .getMessage().contains("at least 10ms"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new HiccupSettings(2_000_000_000L, 1_000_000_000L, 0, 2_000_000, null))
            .getMessage().contains("must not exceed the interval"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new HiccupSettings(1_000_000, 1_000_000_000L, -1, 2_000_000, null))
            .getMessage().contains("negative"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new HiccupSettings(1_000_000, 1_000_000_000L, 0, 10, null))
            .getMessage().contains("stall threshold"));
    }
}
