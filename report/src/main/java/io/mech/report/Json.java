package io.mech.report;

/**
 * The one JSON writer of mech's reports, the agent's and replay's: a document written forward,
 * member by member, into a {@link StringBuilder}, with commas placed by the writer.
 *
 * <p>Strings are escaped one way everywhere: quotes, backslashes, control characters, and
 * U+2028 and U+2029, which are valid JSON but end a line for JavaScript, so that a report pasted
 * into a page stays one string. A double that is not finite has no JSON form and is written as
 * {@code null}; finite doubles are written as Java's {@link Double#toString}, which JSON reads
 * back to the same value.
 *
 * <p>Not thread-safe: one thread writes a document.
 */
public final class Json {

    /** How deep objects and arrays may nest: one bit of {@link #started} each. */
    private static final int MAX_DEPTH = Long.SIZE;

    private final StringBuilder out;
    /** Bit d is set once the container at depth d holds a member, so the next one needs a comma. */
    private long started;
    private int depth;
    /** A name was written and its value is due: no comma before that value. */
    private boolean named;

    /** A writer with room for a small document. */
    public Json() {
        this(256);
    }

    /** @param capacity the characters to make room for at first */
    public Json(final int capacity) {
        out = new StringBuilder(capacity);
    }

    /** Opens an object, as a value. */
    public Json beginObject() {
        return open('{');
    }

    /** Closes the innermost object. */
    public Json endObject() {
        return close('}');
    }

    /** Opens an array, as a value. */
    public Json beginArray() {
        return open('[');
    }

    /** Closes the innermost array. */
    public Json endArray() {
        return close(']');
    }

    /** Opens an object as the member {@code name} of the enclosing object. */
    public Json beginObject(final String name) {
        return name(name).beginObject();
    }

    /** Opens an array as the member {@code name} of the enclosing object. */
    public Json beginArray(final String name) {
        return name(name).beginArray();
    }

    /** Writes a member's name; its value must follow. */
    public Json name(final String name) {
        separate();
        quote(out, name);
        out.append(':');
        named = true;
        return this;
    }

    /** A string value, or {@code null}. */
    public Json value(final String value) {
        separate();
        if (value == null) {
            out.append("null");
        } else {
            quote(out, value);
        }
        return this;
    }

    /** A whole number. */
    public Json value(final long value) {
        separate();
        out.append(value);
        return this;
    }

    /** A number; {@code null} when it is not finite. */
    public Json value(final double value) {
        separate();
        if (Double.isFinite(value)) {
            out.append(value);
        } else {
            out.append("null");
        }
        return this;
    }

    /** A boolean. */
    public Json value(final boolean value) {
        separate();
        out.append(value);
        return this;
    }

    /** A member holding a string, or {@code null}. */
    public Json field(final String name, final String value) {
        return name(name).value(value);
    }

    /** A member holding a whole number. */
    public Json field(final String name, final long value) {
        return name(name).value(value);
    }

    /** A member holding a number, {@code null} when it is not finite. */
    public Json field(final String name, final double value) {
        return name(name).value(value);
    }

    /** A member holding a boolean. */
    public Json field(final String name, final boolean value) {
        return name(name).value(value);
    }

    /** A member holding a number, left out when the number is not finite (unknown). */
    public Json fieldIfKnown(final String name, final double value) {
        return Double.isFinite(value) ? field(name, value) : this;
    }

    /**
     * A duration in milliseconds with microsecond precision, the unit of every {@code _ms} member.
     *
     * @param name  the member's name, by convention ending in {@code _ms}
     * @param nanos the duration in nanoseconds
     */
    public Json millis(final String name, final long nanos) {
        return field(name, Math.round(nanos / 1e3) / 1e3);
    }

    /** @return the document written so far */
    @Override
    public String toString() {
        return out.toString();
    }

    /**
     * Appends {@code text} as a JSON string, escaped as this class says.
     *
     * @param out  where to append
     * @param text the string, not null
     */
    public static void quote(final StringBuilder out, final String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        out.append("\\u");
                        final String hex = Integer.toHexString(c);
                        out.append("0000", hex.length(), 4).append(hex);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** @return {@code text} as a JSON string */
    public static String quote(final String text) {
        final StringBuilder out = new StringBuilder(text.length() + 2);
        quote(out, text);
        return out.toString();
    }

    private Json open(final char bracket) {
        if (depth == MAX_DEPTH) {
            throw new IllegalStateException("JSON nested deeper than " + MAX_DEPTH);
        }
        separate();
        out.append(bracket);
        depth++;
        started &= ~(1L << (depth - 1));
        return this;
    }

    private Json close(final char bracket) {
        if (depth == 0 || named) {
            throw new IllegalStateException("nothing open to close with " + bracket + (named ? ": a name waits for its value" : ""));
        }
        depth--;
        out.append(bracket);
        return this;
    }

    /** Puts a comma before every member of a container but its first, and none between a name and its value. */
    private void separate() {
        if (named) {
            named = false;
            return;
        }
        if (depth > 0) {
            final long bit = 1L << (depth - 1);
            if ((started & bit) != 0) {
                out.append(',');
            }
            started |= bit;
        }
    }
}
