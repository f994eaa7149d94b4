package io.mech.replay;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Decodes the base64 histogram column of an interval line into {@link IntervalCounts} that are
 * reused from line to line.
 *
 * <p>Why not {@code Histogram.decodeFromCompressedByteBuffer} for every line: it allocates a full
 * counts array, an inflater and two buffers per call. Replaying a day of one-second intervals
 * that way churns gigabytes and took the JVM to about 480 MiB resident here. This decoder reads
 * HdrHistogram's V2 encoding (the one every writer since format 1.3 uses) straight into nonzero
 * counts, and hands every other encoding (V0, V1) to HdrHistogram's own decoder. Tests check that
 * both paths give histograms equal to HdrHistogram's decoding of the same payload.
 *
 * <p>One decoder serves every log of a merge, one line at a time: its buffers, inflater and
 * shapes are then paid for once, not once per log.
 *
 * <p>Not thread-safe. The counts returned stay valid until the next call.
 */
final class PayloadDecoder {

    private static final int V2_COMPRESSED_COOKIE = 0x1c849304;
    private static final int V2_COOKIE = 0x1c849303;
    private static final int HEADER_BYTES = 40;
    /** A larger payload is corrupt: a full day at 1 ns resolution with 5 digits encodes in less. */
    private static final int MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;
    private static final int MAX_SHAPES = 8;

    private final Inflater inflater = new Inflater();
    private byte[] raw = new byte[4096];
    private byte[] inflated = new byte[4096];
    /** Shapes met so far, most recent first: a fleet of mixed writers has a few, not one per line. */
    private final List<Shape> shapes = new ArrayList<>();
    private final IntervalCounts counts = new IntervalCounts();
    private long[] valueAtIndex;

    /** An encoded shape: an empty histogram of it, and the value of each of its counts indexes. */
    private record Shape(Histogram histogram, long[] valueAtIndex) {
    }

    /**
     * Decodes one payload.
     *
     * @param line   holds the base64 text
     * @param from   its first byte
     * @param to     one past its last byte
     * @return the decoded counts, owned by this decoder
     * @throws LogFormatException.Problem naming what is wrong with the payload
     */
    IntervalCounts decode(final byte[] line, final int from, final int to) throws LogFormatException.Problem {
        final int length = base64(line, from, to);
        if (length < 8) {
            throw new LogFormatException.Problem("histogram payload too short (" + length + " bytes)");
        }
        final int cookie = readInt(raw, 0);
        if ((cookie & ~0xf0) != V2_COMPRESSED_COOKIE) {
            return decodeOther(length);
        }
        final int compressedLength = readInt(raw, 4);
        if (compressedLength < 0 || compressedLength > length - 8) {
            throw new LogFormatException.Problem("histogram payload truncated: " + (length - 8)
                + " compressed bytes, header says " + compressedLength);
        }
        try {
            // One call inflates a whole payload: each call is a trip through JNI into zlib, and
            // those trips, three per line, were the largest cost of a replay.
            inflater.reset();
            inflater.setInput(raw, 8, compressedLength);
            int filled = 0;
            while (!inflater.finished()) {
                if (filled == inflated.length) {
                    if (inflated.length >= HEADER_BYTES + MAX_PAYLOAD_BYTES) {
                        throw new LogFormatException.Problem("histogram payload inflates past " + MAX_PAYLOAD_BYTES + " bytes");
                    }
                    inflated = Arrays.copyOf(inflated, inflated.length * 2);
                }
                final int n = inflater.inflate(inflated, filled, inflated.length - filled);
                filled += n;
                if (n == 0 && filled < inflated.length) {
                    // Room left and nothing inflated: the input ended before the stream did.
                    break;
                }
            }
            if (filled < HEADER_BYTES) {
                throw new LogFormatException.Problem("histogram payload truncated in its header");
            }
            final int innerCookie = readInt(inflated, 0);
            if ((innerCookie & ~0xf0) != V2_COOKIE) {
                throw new LogFormatException.Problem("histogram payload has an unknown encoding cookie 0x"
                    + Integer.toHexString(innerCookie));
            }
            final int payloadBytes = readInt(inflated, 4);
            final int normalizingIndexOffset = readInt(inflated, 8);
            if (payloadBytes < 0 || payloadBytes > MAX_PAYLOAD_BYTES) {
                throw new LogFormatException.Problem("histogram payload length " + payloadBytes + " out of range");
            }
            if (normalizingIndexOffset != 0) {
                // Only shifted histograms carry an offset; HdrHistogram's decoder knows how to apply it.
                return decodeOther(length);
            }
            if (filled - HEADER_BYTES < payloadBytes) {
                throw new LogFormatException.Problem("histogram payload truncated: " + (filled - HEADER_BYTES)
                    + " of " + payloadBytes + " counts bytes");
            }
            shaped(readInt(inflated, 12), readLong(inflated, 16), readLong(inflated, 24));
            fillCounts(HEADER_BYTES, HEADER_BYTES + payloadBytes);
            return counts;
        } catch (final DataFormatException e) {
            throw new LogFormatException.Problem("histogram payload is not valid zlib data (" + e.getMessage() + ")");
        }
    }

    /** Empties the counts for an interval of the encoded shape, and sets {@link #valueAtIndex} for it. */
    private void shaped(final int digits, final long lowest, final long highest) throws LogFormatException.Problem {
        Shape found = null;
        for (int i = 0; i < shapes.size() && found == null; i++) {
            final Histogram h = shapes.get(i).histogram();
            if (h.getNumberOfSignificantValueDigits() == digits && h.getLowestDiscernibleValue() == lowest
                && h.getHighestTrackableValue() == highest) {
                found = shapes.get(i);
                if (i > 0) {
                    shapes.remove(i);
                    shapes.add(0, found);
                }
            }
        }
        if (found == null) {
            final Histogram fresh;
            try {
                fresh = new Histogram(lowest, highest, digits);
            } catch (final IllegalArgumentException e) {
                throw new LogFormatException.Problem("histogram payload has an impossible shape (" + e.getMessage() + ")");
            }
            fresh.setAutoResize(true);
            long[] values = new long[1024];
            int n = 0;
            for (final HistogramIterationValue v : fresh.allValues()) {
                if (n == values.length) {
                    values = Arrays.copyOf(values, n * 2);
                }
                values[n++] = fresh.lowestEquivalentValue(v.getValueIteratedTo());
            }
            found = new Shape(fresh, Arrays.copyOf(values, n));
            shapes.add(0, found);
            if (shapes.size() > MAX_SHAPES) {
                shapes.remove(shapes.size() - 1);
            }
        }
        valueAtIndex = found.valueAtIndex();
        counts.reset(found.histogram());
    }

    /** Reads the ZigZag LEB128 counts: positive numbers are counts, negative ones runs of empty buckets. */
    private void fillCounts(final int from, final int to) throws LogFormatException.Problem {
        int index = 0;
        int p = from;
        while (p < to) {
            long raw = 0;
            int shift = 0;
            while (true) {
                if (p >= to) {
                    throw new LogFormatException.Problem("histogram payload ends inside a count");
                }
                final int b = inflated[p++] & 0xff;
                if (shift == 56) {
                    raw |= (long) b << 56;
                    break;
                }
                raw |= (long) (b & 0x7f) << shift;
                if ((b & 0x80) == 0) {
                    break;
                }
                shift += 7;
            }
            final long count = (raw >>> 1) ^ -(raw & 1);
            if (count < 0) {
                if (-count > valueAtIndex.length - (long) index) {
                    throw new LogFormatException.Problem("histogram payload has counts beyond its highest trackable value");
                }
                index += (int) -count;
            } else {
                if (index >= valueAtIndex.length) {
                    throw new LogFormatException.Problem("histogram payload has counts beyond its highest trackable value");
                }
                if (count > 0) {
                    counts.append(valueAtIndex[index], count);
                }
                index++;
            }
        }
    }

    /** Any other encoding goes through HdrHistogram's own decoder. */
    private IntervalCounts decodeOther(final int length) throws LogFormatException.Problem {
        final Histogram decoded;
        try {
            decoded = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(raw, 0, length), 0);
        } catch (final DataFormatException | RuntimeException e) {
            throw new LogFormatException.Problem("histogram payload cannot be decoded (" + e.getMessage() + ")");
        }
        shaped(decoded.getNumberOfSignificantValueDigits(), decoded.getLowestDiscernibleValue(), decoded.getHighestTrackableValue());
        counts.copyFrom(decoded);
        return counts;
    }

    /** Decodes standard base64 into {@code raw}, returning the number of bytes. */
    private int base64(final byte[] text, final int from, final int to) throws LogFormatException.Problem {
        final int chars = to - from;
        if (chars == 0 || chars % 4 != 0) {
            throw new LogFormatException.Problem("histogram payload is not base64 (length " + chars + " is not a multiple of 4)");
        }
        final int padding = text[to - 1] == '=' ? text[to - 2] == '=' ? 2 : 1 : 0;
        final int length = chars / 4 * 3 - padding;
        if (raw.length < length + 2) {
            raw = new byte[Math.max(length + 2, raw.length * 2)];
        }
        int out = 0;
        for (int i = from; i < to; i += 4) {
            final boolean last = i + 4 == to;
            final int a = sextet(text, i);
            final int b = sextet(text, i + 1);
            final int c = last && padding == 2 ? 0 : sextet(text, i + 2);
            final int d = last && padding >= 1 ? 0 : sextet(text, i + 3);
            final int bits = a << 18 | b << 12 | c << 6 | d;
            raw[out++] = (byte) (bits >> 16);
            raw[out++] = (byte) (bits >> 8);
            raw[out++] = (byte) bits;
        }
        return length;
    }

    private static int sextet(final byte[] text, final int i) throws LogFormatException.Problem {
        final int c = text[i];
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        if (c == '+') {
            return 62;
        }
        if (c == '/') {
            return 63;
        }
        throw new LogFormatException.Problem("histogram payload is not base64 (byte 0x" + Integer.toHexString(c & 0xff)
            + " in it)");
    }

    private static int readInt(final byte[] b, final int at) {
        return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | b[at + 3] & 0xff;
    }

    private static long readLong(final byte[] b, final int at) {
        return (long) readInt(b, at) << 32 | readInt(b, at + 4) & 0xffffffffL;
    }
}
