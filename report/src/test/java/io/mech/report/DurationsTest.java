package io.mech.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void readsEveryUnit() {
        assertEquals(500, Durations.parseNanos("500ns"));
        assertEquals(250_000, Durations.parseNanos("250us"));
        assertEquals(1_000_000, Durations.parseNanos("1ms"));
        assertEquals(5_000_000_000L, Durations.parseNanos("5s"));
        assertEquals(90_000_000_000L, Durations.parseNanos("1.5m"));
        assertEquals(3_600_000_000_000L, Durations.parseNanos("1h"));
        assertEquals(0, Durations.parseNanos("0"));
    }

    @Test
    void refusesNumbersWithoutUnitsAndGarbage() {
        final IllegalArgumentException bare = assertThrows(IllegalArgumentException.class, () -> Durations.parseNanos("5"));
        assertEquals("a duration needs a unit, ns, us, ms, s, m or h, such as 5ms or 5s", bare.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Durations.parseNanos("five seconds"));
        assertThrows(IllegalArgumentException.class, () -> Durations.parseNanos("-1s"));
        assertThrows(IllegalArgumentException.class, () -> Durations.parseNanos(""));
    }
}
