package io.mech.testing;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a JSON document (RFC 8259) into plain values, for tests that check what mech writes: an
 * object is a {@code Map<String, Object>} in document order, an array a {@code List<Object>}, a
 * string a {@code String}, a number a {@code BigDecimal} (as written, neither rounded nor
 * widened), {@code true} and {@code false} a {@code Boolean}, and {@code null} null. A document
 * that is not JSON fails with where, so a test never passes on text it misread.
 */
public final class JsonReader {

    private final String text;
    private int at;

    private JsonReader(final String text) {
        this.text = text;
    }

    /**
     * @param json a JSON document, white space around it allowed
     * @return its value
     * @throws IllegalArgumentException when it is not one JSON value
     */
    public static Object read(final String json) {
        final JsonReader reader = new JsonReader(json);
        final Object value = reader.value();
        reader.space();
        if (reader.at != json.length()) {
            throw reader.error("text after the document");
        }
        return value;
    }

    /**
     * @param json a JSON document whose value is an object
     * @return that object
     */
    @SuppressWarnings("unchecked") // what value() makes of an object
    public static Map<String, Object> object(final String json) {
        final Object value = read(json);
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException("not a JSON object: " + (json.length() > 80 ? json.substring(0, 80) + "..." : json));
        }
        return (Map<String, Object>) value;
    }

    private Object value() {
        space();
        if (at >= text.length()) {
            throw error("a value expected");
        }
        final char c = text.charAt(at);
        switch (c) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                return number();
        }
    }

    private Map<String, Object> object() {
        final Map<String, Object> object = new LinkedHashMap<>();
        at++;
        space();
        if (peek() == '}') {
            at++;
            return object;
        }
        while (true) {
            space();
            if (peek() != '"') {
                throw error("a key expected");
            }
            final String key = string();
            space();
            expect(':');
            if (object.containsKey(key)) {
                throw error("key '" + key + "' given twice");
            }
            object.put(key, value());
            space();
            if (peek() == ',') {
                at++;
            } else {
                expect('}');
                return object;
            }
        }
    }

    private List<Object> array() {
        final List<Object> array = new ArrayList<>();
        at++;
        space();
        if (peek() == ']') {
            at++;
            return array;
        }
        while (true) {
            array.add(value());
            space();
            if (peek() == ',') {
                at++;
            } else {
                expect(']');
                return array;
            }
        }
    }

    private String string() {
        at++;
        final StringBuilder out = new StringBuilder();
        while (true) {
            if (at >= text.length()) {
                throw error("an unterminated string");
            }
            final char c = text.charAt(at++);
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                throw error("a control character in a string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (at >= text.length()) {
                throw error("an unterminated escape");
            }
            final char e = text.charAt(at++);
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw error("a short \\u escape");
                    }
                    out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                }
                default -> throw error("an unknown escape \\" + e);
            }
        }
    }

    private BigDecimal number() {
        final int start = at;
        if (peek() == '-') {
            at++;
        }
        while (at < text.length() && "0123456789.eE+-".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        if (start == at) {
            throw error("a value expected");
        }
        try {
            return new BigDecimal(text.substring(start, at));
        } catch (final NumberFormatException e) {
            at = start;
            throw error("a malformed number");
        }
    }

    private Object literal(final String word, final Object value) {
        if (!text.startsWith(word, at)) {
            throw error("'" + word + "' expected");
        }
        at += word.length();
        return value;
    }

    private void expect(final char c) {
        if (peek() != c) {
            throw error("'" + c + "' expected");
        }
        at++;
    }

    private char peek() {
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private void space() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
    }

    private IllegalArgumentException error(final String what) {
        final int from = Math.max(0, at - 20);
        return new IllegalArgumentException(what + " at character " + at + ": ..." + text.substring(from, Math.min(text.length(), at + 20))
            + "...");
    }
}
