package io.mech.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ColumnsTest {

    @Test
    void fixedPointIsWhatTheFormatterWrites() {
        final double[] edges = {0, -0.0, 0.0005, 0.0015, 1.0005, 2.5, -2.5, 0.125, 9.9995, 99.95, 1e-9, -1e-9, 1e7, 123456789.987654,
            1e300, Double.MIN_VALUE, Double.MAX_VALUE, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.1 + 0.2};
        for (final double value : edges) {
            for (int decimals = 0; decimals <= 3; decimals++) {
                assertFixed(value, decimals);
            }
        }
        // what the report writes: nanoseconds and bytes in milliseconds and shares, over many magnitudes
        final SplittableRandom random = new SplittableRandom(20261129);
        for (int i = 0; i < 20_000; i++) {
            final long nanos = random.nextLong(1L << random.nextInt(1, 50));
            assertFixed(nanos / 1e6, 3);
            assertFixed(nanos / 1e9, 1 + random.nextInt(3));
            assertFixed(-nanos / 1e6, 0);
            assertFixed(random.nextDouble() * 100, random.nextInt(3));
        }
    }

    private static void assertFixed(final double value, final int decimals) {
        assertEquals(String.format(Locale.ROOT, "%." + decimals + "f", value), Columns.fixed(value, decimals), value + " to " + decimals);
        assertEquals(String.format(Locale.ROOT, "%+." + decimals + "f", value), Columns.signed(value, decimals), "signed " + value);
    }

    @Test
    void columnsAreWhatTheFormatterPads() {
        for (final String text : new String[] {"", "p50", "host", "a much longer text than the column"}) {
            for (final int width : new int[] {1, 4, 9, 12}) {
                assertEquals(String.format(Locale.ROOT, "%" + width + "s", text), Columns.right(new StringBuilder(), text, width).toString());
                assertEquals(String.format(Locale.ROOT, "%-" + width + "s", text), Columns.left(new StringBuilder(), text, width).toString());
            }
        }
    }
}
