package io.mech.exporter;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Protocol buffers' wire format written into one growable byte array: the few field kinds
 * Prometheus's {@code metrics.proto} uses, and nested messages. A nested message's length comes
 * before its body on the wire but is known only after it: {@link #begin} leaves its place, and
 * {@link #end} moves the body along by the length's own size and writes the length in front, so
 * nesting costs a copy of each byte per enclosing message and no buffer of its own.
 *
 * <p>Used by one thread at a time.
 */
final class ProtobufBuffer {

    private static final int VARINT = 0;
    private static final int FIXED64 = 1;
    private static final int LENGTH_DELIMITED = 2;

    private byte[] bytes;
    private int size;

    /** @param capacity the bytes to hold before the first growth */
    ProtobufBuffer(final int capacity) {
        bytes = new byte[Math.max(capacity, 64)];
    }

    /** @return the bytes written */
    int size() {
        return size;
    }

    /** Writes every byte written so far. */
    void writeTo(final OutputStream out) throws IOException {
        out.write(bytes, 0, size);
    }

    /** A uint32, uint64, int64 or enum field; int32 values are passed sign-extended, as protobuf does. */
    void varintField(final int field, final long value) {
        tag(field, VARINT);
        varint(value);
    }

    /** A sint32 or sint64 field, zigzag-encoded so that small negative values stay short. */
    void sintField(final int field, final long value) {
        varintField(field, (value << 1) ^ (value >> 63));
    }

    /** A double field: eight bytes, least significant first, the value's bits as they are (NaN's included). */
    void doubleField(final int field, final double value) {
        tag(field, FIXED64);
        ensure(8);
        long bits = Double.doubleToRawLongBits(value);
        for (int i = 0; i < 8; i++) {
            bytes[size++] = (byte) bits;
            bits >>>= 8;
        }
    }

    /** A string field, UTF-8 encoded. */
    void stringField(final int field, final String value) {
        stringField(field, value, "");
    }

    /**
     * A string field of two parts, so that a family name and its suffix ({@code _total}) need not
     * be joined into a new string at every scrape.
     */
    void stringField(final int field, final String value, final String suffix) {
        tag(field, LENGTH_DELIMITED);
        if (ascii(value) && ascii(suffix)) {
            varint(value.length() + suffix.length());
            ensure(value.length() + suffix.length());
            size = putAscii(value, size);
            size = putAscii(suffix, size);
        } else {
            // Rare (label values naming non-ASCII classes): the JDK's encoder, which puts '?' for
            // an unpaired surrogate exactly as protobuf's own writer falls back to.
            final byte[] utf8 = (value + suffix).getBytes(StandardCharsets.UTF_8);
            varint(utf8.length);
            ensure(utf8.length);
            System.arraycopy(utf8, 0, bytes, size, utf8.length);
            size += utf8.length;
        }
    }

    /**
     * Starts a nested message, or with field 0 a length-delimited message at the top level, as
     * {@code writeDelimitedTo} frames them.
     *
     * @return the mark to pass to {@link #end}
     */
    int begin(final int field) {
        if (field != 0) {
            tag(field, LENGTH_DELIMITED);
        }
        return size;
    }

    /** Ends the message begun at the mark: puts its length in front of it. */
    void end(final int mark) {
        final int length = size - mark;
        final int prefix = varintSize(length);
        ensure(prefix);
        System.arraycopy(bytes, mark, bytes, mark + prefix, length);
        putVarint(length, mark);
        size += prefix;
    }

    /** Drops a top-level message begun at the mark (field 0), and everything written after it. */
    void discard(final int mark) {
        size = mark;
    }

    private void tag(final int field, final int wireType) {
        varint((long) field << 3 | wireType);
    }

    private void varint(final long value) {
        ensure(10);
        size = putVarint(value, size);
    }

    /** Writes a varint at a place the array has room for; returns the place after it. */
    private int putVarint(final long value, final int at) {
        int next = at;
        long rest = value;
        while ((rest & ~0x7FL) != 0) {
            bytes[next++] = (byte) ((rest & 0x7F) | 0x80);
            rest >>>= 7;
        }
        bytes[next++] = (byte) rest;
        return next;
    }

    private static int varintSize(final int value) {
        int length = 1;
        int rest = value >>> 7;
        while (rest != 0) {
            length++;
            rest >>>= 7;
        }
        return length;
    }

    private static boolean ascii(final String value) {
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private int putAscii(final String value, final int at) {
        for (int i = 0; i < value.length(); i++) {
            bytes[at + i] = (byte) value.charAt(i);
        }
        return at + value.length();
    }

    private void ensure(final int more) {
        if (bytes.length - size < more) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
