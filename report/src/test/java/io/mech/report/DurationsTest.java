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

    @Test
    void acceptsWhatTheGrammarSaysAndNothingElse() {
        // the grammar as a regular expression, which the parser reads by hand
        final java.util.regex.Pattern grammar = java.util.regex.Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|ms|s|m|h)|0");
        final String[] numbers = {"", "0", "7", "12", "1.5", "0.25", "1.", ".5", "1..5", "1.2.3", "-1", "+1", "1e3", "\u0661"};
        final String[] units = {"", "ns", "us", "ms", "s", "m", "h", "S", "sec", "mss", " s", "hh", "x"};
        for (final String number : numbers) {
            for (final String unit : units) {
                final String text = number + unit;
                final boolean valid = grammar.matcher(text.trim()).matches();
                try {
                    Durations.parseNanos(text);
                    assertEquals(true, valid, text + " was taken");
                } catch (final IllegalArgumentException refused) {
                    assertEquals(false, valid, text + " was refused: " + refused.getMessage());
                }
            }
        }
        assertEquals("a duration needs a unit, ns, us, ms, s, m or h, such as 1.5ms or 1.5s",
            assertThrows(IllegalArgumentException.class, () -> Durations.parseNanos("1.5")).getMessage());
        assertEquals("not a duration such as 500us, 2ms or 1s",
            assertThrows(IllegalArgumentException.class, () -> Durations.parseNanos("1.s")).getMessage());
        assertEquals("a duration too long", assertThrows(IllegalArgumentException.class, () -> Durations.parseNanos("9999999999h")).getMessage());
    }
}
