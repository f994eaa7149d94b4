package io.mech.exporter.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One request's head, read off a connection into its serving thread's buffer: the request line and
 * header fields are kept as offsets into that buffer, and made into strings only when a handler
 * asks for them, so a request costs no garbage the handler does not ask for.
 *
 * <p>Used by one serving thread; what it returns is valid until the handler returns.
 */
public final class Request {

    /** The longest head read; a longer one is answered 431. */
    static final int MAX_HEAD = 8192;
    /** The most header fields read; more are answered 431. */
    static final int MAX_FIELDS = 64;

    private static final byte[] GET = bytes("GET");
    private static final byte[] HEAD = bytes("HEAD");
    private static final byte[] HTTP_1_1 = bytes("HTTP/1.1");
    private static final byte[] HTTP_1_0 = bytes("HTTP/1.0");

    private final byte[] buffer;
    private int methodEnd;
    private int targetStart;
    private int pathEnd;
    private int targetEnd;
    private boolean http11;
    private int fields;
    private final int[] nameStart = new int[MAX_FIELDS];
    private final int[] nameEnd = new int[MAX_FIELDS];
    private final int[] valueStart = new int[MAX_FIELDS];
    private final int[] valueEnd = new int[MAX_FIELDS];

    Request(final byte[] buffer) {
        this.buffer = buffer;
    }

    /** Why a head could not be parsed. */
    enum Parsed {
        OK, MALFORMED, TOO_MANY_FIELDS
    }

    /**
     * Parses the head in {@code buffer[0, end)}, which ends with an empty line.
     *
     * @return whether it is a request line and header fields as HTTP/1.x writes them
     */
    Parsed parse(final int end) {
        fields = 0;
        int lineEnd = lineEnd(0, end);
        methodEnd = indexOf(' ', 0, lineEnd);
        if (methodEnd <= 0) {
            return Parsed.MALFORMED;
        }
        targetStart = methodEnd + 1;
        targetEnd = indexOf(' ', targetStart, lineEnd);
        if (targetEnd <= targetStart || buffer[targetStart] != '/') {
            return Parsed.MALFORMED;
        }
        final int query = indexOf('?', targetStart, targetEnd);
        pathEnd = query < 0 ? targetEnd : query;
        if (equals(targetEnd + 1, lineEnd, HTTP_1_1)) {
            http11 = true;
        } else if (equals(targetEnd + 1, lineEnd, HTTP_1_0)) {
            http11 = false;
        } else {
            return Parsed.MALFORMED;
        }
        int at = lineEnd + 2;
        while (true) {
            lineEnd = lineEnd(at, end);
            if (lineEnd == at) {
                return Parsed.OK;
            }
            final int colon = indexOf(':', at, lineEnd);
            // a field folded onto the next line, or with white space before its colon, is refused (RFC 9112, 5.1 and 5.2)
            if (colon <= at || buffer[at] == ' ' || buffer[at] == '\t' || buffer[colon - 1] == ' ' || buffer[colon - 1] == '\t') {
                return Parsed.MALFORMED;
            }
            if (fields == MAX_FIELDS) {
                return Parsed.TOO_MANY_FIELDS;
            }
            int from = colon + 1;
            int to = lineEnd;
            while (from < to && (buffer[from] == ' ' || buffer[from] == '\t')) {
                from++;
            }
            while (to > from && (buffer[to - 1] == ' ' || buffer[to - 1] == '\t')) {
                to--;
            }
            nameStart[fields] = at;
            nameEnd[fields] = colon;
            valueStart[fields] = from;
            valueEnd[fields] = to;
            fields++;
            at = lineEnd + 2;
        }
    }

    /** @return the method: the constant "GET" or "HEAD", or a string of its own for any other */
    public String method() {
        if (equals(0, methodEnd, GET)) {
            return "GET";
        }
        if (equals(0, methodEnd, HEAD)) {
            return "HEAD";
        }
        return ascii(0, methodEnd);
    }

    /** @return whether the method is HEAD, whose response has no body */
    public boolean isHead() {
        return equals(0, methodEnd, HEAD);
    }

    /** @return whether the method is GET or HEAD */
    public boolean isRead() {
        return isHead() || equals(0, methodEnd, GET);
    }

    /** @return whether the path, without the query, is exactly this one */
    public boolean pathIs(final String path) {
        if (pathEnd - targetStart != path.length()) {
            return false;
        }
        for (int i = 0; i < path.length(); i++) {
            if (buffer[targetStart + i] != path.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** @return the path as sent, without the query */
    public String path() {
        return ascii(targetStart, pathEnd);
    }

    /** @return the query as sent, after the '?', or null when there is none */
    public String query() {
        return pathEnd == targetEnd ? null : ascii(pathEnd + 1, targetEnd);
    }

    /** @return the first value of this header field, its name matched without case, or null */
    public String header(final String name) {
        for (int i = 0; i < fields; i++) {
            if (named(i, name)) {
                return ascii(valueStart[i], valueEnd[i]);
            }
        }
        return null;
    }

    /** @return every value of this header field, in order */
    public List<String> headers(final String name) {
        final List<String> values = new ArrayList<>(1);
        for (int i = 0; i < fields; i++) {
            if (named(i, name)) {
                values.add(ascii(valueStart[i], valueEnd[i]));
            }
        }
        return values;
    }

    /** @return whether the client lets the connection stay open after the response: HTTP/1.1 unless it said close */
    boolean keepsAlive() {
        for (int i = 0; i < fields; i++) {
            if (named(i, "Connection") && containsWord(valueStart[i], valueEnd[i], "close")) {
                return false;
            }
        }
        return http11;
    }

    /** @return whether a body follows the head, which the server does not read: it answers and closes */
    boolean hasBody() {
        for (int i = 0; i < fields; i++) {
            if (named(i, "Transfer-Encoding")) {
                return true;
            }
            if (named(i, "Content-Length") && !(valueEnd[i] - valueStart[i] == 1 && buffer[valueStart[i]] == '0')) {
                return true;
            }
        }
        return false;
    }

    private boolean named(final int field, final String name) {
        final int start = nameStart[field];
        if (nameEnd[field] - start != name.length()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if ((buffer[start + i] | 0x20) != (name.charAt(i) | 0x20)) {
                return false;
            }
        }
        return true;
    }

    private boolean containsWord(final int from, final int to, final String word) {
        for (int at = from; at + word.length() <= to; at++) {
            boolean match = at == from || buffer[at - 1] == ',' || buffer[at - 1] == ' ';
            for (int i = 0; match && i < word.length(); i++) {
                match = (buffer[at + i] | 0x20) == word.charAt(i);
            }
            if (match && (at + word.length() == to || buffer[at + word.length()] == ',' || buffer[at + word.length()] == ' ')) {
                return true;
            }
        }
        return false;
    }

    private int lineEnd(final int from, final int end) {
        for (int i = from; i + 1 < end; i++) {
            if (buffer[i] == '\r' && buffer[i + 1] == '\n') {
                return i;
            }
        }
        return end;
    }

    private int indexOf(final char c, final int from, final int to) {
        for (int i = from; i < to; i++) {
            if (buffer[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private boolean equals(final int from, final int to, final byte[] expected) {
        if (to - from != expected.length) {
            return false;
        }
        for (int i = 0; i < expected.length; i++) {
            if (buffer[from + i] != expected[i]) {
                return false;
            }
        }
        return true;
    }

    private String ascii(final int from, final int to) {
        return new String(buffer, from, to - from, StandardCharsets.ISO_8859_1);
    }

    /**
     * The end of the head in {@code buffer[0, filled)}, just past its empty line, or -1 when it has
     * not all arrived; {@code searched} bytes were looked through before.
     */
    static int headEnd(final byte[] buffer, final int searched, final int filled) {
        for (int i = Math.max(0, searched - 3); i + 3 < filled; i++) {
            if (buffer[i] == '\r' && buffer[i + 1] == '\n' && buffer[i + 2] == '\r' && buffer[i + 3] == '\n') {
                return i + 4;
            }
        }
        return -1;
    }

    private static byte[] bytes(final String ascii) {
        return ascii.getBytes(StandardCharsets.US_ASCII);
    }
}
