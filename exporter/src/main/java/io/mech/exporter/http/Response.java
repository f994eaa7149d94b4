package io.mech.exporter.http;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * The response to one request, written in one go: status line and header fields into the serving
 * thread's own buffer, then the body, under the write deadline. A HEAD request gets the header
 * fields of the body it would have got, and no body.
 *
 * <p>Used by one serving thread.
 */
public final class Response {

    /** Room for the status line and header fields, and for a small body copied after them so that both go in one write. */
    private static final int BUFFER = 8192;
    /**
     * The most the buffer grows to for a body to go in the same write as the head: a scrape's,
     * some 16 KiB with the defaults, went in two, and the client read it in two wake-ups.
     */
    private static final int MAX_BUFFER = 256 * 1024;
    private static final int MAX_EXTRA_FIELDS = 4;

    /** Grown, once, to the largest body up to {@link #MAX_BUFFER} this thread has sent. */
    private byte[] head = new byte[BUFFER];
    private final HttpDate date = new HttpDate();
    private final Deadlines.Slot deadline;
    private final String[] extraNames = new String[MAX_EXTRA_FIELDS];
    private final String[] extraValues = new String[MAX_EXTRA_FIELDS];
    private int extras;
    private OutputStream out;
    private boolean headOnly;
    private boolean closes;
    private boolean sent;

    Response(final Deadlines.Slot deadline) {
        this.deadline = deadline;
    }

    /** Made ready for the next request on a connection. */
    void reset(final OutputStream out, final boolean headOnly, final boolean closes) {
        this.out = out;
        this.headOnly = headOnly;
        this.closes = closes;
        extras = 0;
        sent = false;
    }

    /** @return whether the connection closes after this response */
    boolean closes() {
        return closes;
    }

    /** @return whether the response was sent, or its sending begun */
    boolean sent() {
        return sent;
    }

    /**
     * Adds a header field beyond those {@link #send} writes; at most four.
     *
     * @param name  a field name that is not Content-Type, Content-Length, Content-Encoding, Date nor Connection
     * @param value its value, ISO-8859-1
     */
    public void header(final String name, final String value) {
        if (extras == MAX_EXTRA_FIELDS) {
            throw new IllegalStateException("more than " + MAX_EXTRA_FIELDS + " extra header fields");
        }
        extraNames[extras] = name;
        extraValues[extras] = value;
        extras++;
    }

    /**
     * Sends the response: once per request.
     *
     * @param status          the status code
     * @param contentType     the Content-Type
     * @param contentEncoding the Content-Encoding, or null
     * @param body            the body's bytes, of which the first {@code length} are sent
     * @param length          the body's length
     * @throws IOException when the client went away or the write deadline passed
     */
    public void send(final int status, final String contentType, final String contentEncoding, final byte[] body, final int length)
        throws IOException {
        if (sent) {
            throw new IllegalStateException("the response was sent already");
        }
        int at = put(0, "HTTP/1.1 ");
        at = number(at, status);
        head[at++] = ' ';
        at = put(at, reason(status));
        at = field(at, "Date: ");
        System.arraycopy(date.at(System.currentTimeMillis()), 0, head, at, HttpDate.LENGTH);
        at += HttpDate.LENGTH;
        at = field(at, "Content-Type: ");
        at = put(at, contentType);
        at = field(at, "Content-Length: ");
        at = number(at, length);
        if (contentEncoding != null) {
            at = field(at, "Content-Encoding: ");
            at = put(at, contentEncoding);
        }
        for (int i = 0; i < extras; i++) {
            at = field(at, extraNames[i]);
            at = put(at, ": ");
            at = put(at, extraValues[i]);
        }
        if (closes) {
            at = field(at, "Connection: close");
        }
        at = put(at, "\r\n\r\n");
        // begun only once the head is whole: a handler's bad field leaves the 500 still to send
        sent = true;
        deadline.arm(Deadlines.WRITE_NANOS);
        if (headOnly || length == 0) {
            out.write(head, 0, at);
        } else if (at + length <= MAX_BUFFER) {
            if (at + length > head.length) {
                head = Arrays.copyOf(head, Math.min(MAX_BUFFER, Integer.highestOneBit(at + length - 1) << 1));
            }
            System.arraycopy(body, 0, head, at, length);
            out.write(head, 0, at + length);
        } else {
            out.write(head, 0, at);
            out.write(body, 0, length);
        }
        out.flush();
        deadline.disarm();
    }

    private int field(final int at, final String start) {
        head[at] = '\r';
        head[at + 1] = '\n';
        return put(at + 2, start);
    }

    /** Writes an ISO-8859-1 string; header fields longer than the buffer are a handler's error. */
    private int put(final int at, final String text) {
        final int length = text.length();
        // room left for the Date field and the end of the head, whatever comes after
        if (at + length > BUFFER - 64) {
            throw new IllegalStateException("header fields longer than " + BUFFER + " bytes");
        }
        for (int i = 0; i < length; i++) {
            head[at + i] = (byte) text.charAt(i);
        }
        return at + length;
    }

    private int number(final int at, final int value) {
        if (value < 0) {
            throw new IllegalArgumentException("negative: " + value);
        }
        int digits = 1;
        for (int rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        int rest = value;
        for (int i = at + digits - 1; i >= at; i--) {
            head[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        return at + digits;
    }

    private static String reason(final int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            default -> "Status";
        };
    }
}
