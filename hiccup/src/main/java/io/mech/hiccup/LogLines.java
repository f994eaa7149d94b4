package io.mech.hiccup;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.Deflater;
import org.HdrHistogram.Histogram;

/**
 * Writes HdrHistogram's interval log format 1.3, the lines HdrHistogram's own
 * {@code HistogramLogWriter} writes, byte for byte, from buffers kept between lines.
 *
 * <p>Why not that writer: per line it builds a {@code Formatter}, which loads the locale's number
 * symbols, a Deflater, a copy of its buffer and a Base64 string; and each histogram it encodes
 * keeps an uncompressed buffer of its own, as large as its counts can ever need (341 KiB at mech's
 * range and precision). A log of a few causes' histograms thus allocated 3-4 MiB in an idle
 * host's first 10 s, every byte of it new heap pages in a host that has not collected yet. Here
 * one buffer of each kind serves every histogram, and a line allocates nothing once they have
 * grown. The counts are encoded here too, into a buffer as long as the encoding is (a few hundred
 * bytes for an idle second): HdrHistogram's encoder insists on room for nine bytes a bucket up
 * to the maximum, 120-340 KiB.
 *
 * <p>An interval line is {@code [Tag=<tag>,]<start>,<length>,<max>,<base64>}: seconds since the
 * base time, seconds, the maximum in milliseconds (each with three decimals), then the histogram
 * in its compressed V2 encoding (a cookie, the deflated length, and the uncompressed encoding
 * deflated at the best compression).
 *
 * <p>Not thread-safe: the log's one writing thread calls it.
 */
final class LogLines {

    /** HdrHistogram's cookie for a compressed V2 encoding of a histogram of long counts. */
    private static final int COMPRESSED_V2_COOKIE = 0x1c849314;
    private static final int DEFLATED_HEADER_BYTES = 8;
    /** HdrHistogram's cookie for the V2 encoding of a histogram's counts, uncompressed. */
    private static final int PLAIN_V2_COOKIE = 0x1c849313;
    /** Cookie, payload length, index offset, digits, lowest, highest, integer-to-double ratio. */
    private static final int PLAIN_HEADER_BYTES = 40;
    /** The longest ZigZag LEB128 encoding of a long. */
    private static final int MAX_WORD_BYTES = 9;
    private static final byte[] ALPHABET =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".getBytes(StandardCharsets.US_ASCII);

    private final PrintStream out;
    private final Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
    private byte[] plain = new byte[1024];
    private int plainLength;
    private byte[] deflated = new byte[4096];
    private byte[] encoded = new byte[8192];
    private byte[] text = new byte[256];
    private int length;
    private long baseMillis;

    /** @param out where the lines go; it keeps its failures in its error flag for the caller */
    LogLines(final PrintStream out) {
        this.out = out;
    }

    /**
     * Writes the version, start time, base time and legend lines. The start time's date is an
     * ISO-8601 string built by the caller; interval times from here on are relative to startMillis.
     */
    void header(final long startMillis, final String isoDate) {
        baseMillis = startMillis;
        length = 0;
        ascii("#[Histogram log format version 1.3]\n");
        ascii("#[StartTime: ");
        thousandths(startMillis);
        ascii(" (seconds since epoch), ");
        ascii(isoDate);
        ascii("]\n#[BaseTime: ");
        thousandths(startMillis);
        ascii(" (seconds since epoch)]\n");
        ascii("\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n");
        out.write(text, 0, length);
    }

    /** Writes one interval of a histogram whose start and end time stamps are set. */
    void interval(final Histogram histogram) {
        final int deflatedLength = deflate(histogram);
        length = 0;
        final String tag = histogram.getTag();
        if (tag != null) {
            ascii("Tag=");
            ascii(tag);
            ascii(",");
        }
        thousandths(histogram.getStartTimeStamp() - baseMillis);
        ascii(",");
        thousandths(histogram.getEndTimeStamp() - histogram.getStartTimeStamp());
        ascii(",");
        // the maximum in microseconds, rounded half up as %.3f rounds milliseconds
        thousandths((histogram.getMaxValue() + 500) / 1_000);
        ascii(",");
        out.write(text, 0, length);
        final int written = base64(deflatedLength);
        out.write(encoded, 0, written);
    }

    /** Base64 (RFC 4648, padded) of the first n deflated bytes into {@code encoded}, with a newline. */
    private int base64(final int n) {
        final int needed = 4 * ((n + 2) / 3) + 1;
        if (encoded.length < needed) {
            encoded = new byte[needed];
        }
        int at = 0;
        int i = 0;
        for (; i + 2 < n; i += 3) {
            final int bits = (deflated[i] & 0xff) << 16 | (deflated[i + 1] & 0xff) << 8 | deflated[i + 2] & 0xff;
            encoded[at++] = ALPHABET[bits >>> 18];
            encoded[at++] = ALPHABET[bits >>> 12 & 0x3f];
            encoded[at++] = ALPHABET[bits >>> 6 & 0x3f];
            encoded[at++] = ALPHABET[bits & 0x3f];
        }
        if (i < n) {
            final int bits = (deflated[i] & 0xff) << 16 | (i + 1 < n ? (deflated[i + 1] & 0xff) << 8 : 0);
            encoded[at++] = ALPHABET[bits >>> 18];
            encoded[at++] = ALPHABET[bits >>> 12 & 0x3f];
            encoded[at++] = i + 1 < n ? ALPHABET[bits >>> 6 & 0x3f] : (byte) '=';
            encoded[at++] = '=';
        }
        encoded[at++] = '\n';
        return at;
    }

    /** Encodes and deflates the histogram into {@code deflated}, header first; returns the bytes used. */
    private int deflate(final Histogram histogram) {
        encode(histogram);
        deflater.reset();
        deflater.setInput(plain, 0, plainLength);
        deflater.finish();
        int n = DEFLATED_HEADER_BYTES;
        while (!deflater.finished()) {
            if (n == deflated.length) {
                deflated = Arrays.copyOf(deflated, deflated.length * 2);
            }
            n += deflater.deflate(deflated, n, deflated.length - n);
        }
        putInt(deflated, 0, COMPRESSED_V2_COOKIE);
        putInt(deflated, 4, n - DEFLATED_HEADER_BYTES);
        return n;
    }

    /**
     * HdrHistogram's V2 encoding into {@code plain}: the header, then one ZigZag LEB128 word per
     * bucket up to the maximum's, each a count, or minus the length of a run of two or more
     * empty buckets. The buckets are walked by value, one equivalence range at a time, which is
     * the order of HdrHistogram's index; mech's histograms never shift, so the index offset is 0,
     * and they count integers, so the ratio is 1.
     */
    private void encode(final Histogram histogram) {
        plainLength = PLAIN_HEADER_BYTES;
        final long max = histogram.getMaxValue();
        long value = 0;
        while (value <= max) {
            final long count = histogram.getCountAtValue(value);
            value = histogram.nextNonEquivalentValue(value);
            if (count != 0) {
                word(count);
                continue;
            }
            long zeros = 1;
            while (value <= max && histogram.getCountAtValue(value) == 0) {
                zeros++;
                value = histogram.nextNonEquivalentValue(value);
            }
            word(zeros > 1 ? -zeros : 0);
        }
        putInt(plain, 0, PLAIN_V2_COOKIE);
        putInt(plain, 4, plainLength - PLAIN_HEADER_BYTES);
        putInt(plain, 8, 0);
        putInt(plain, 12, histogram.getNumberOfSignificantValueDigits());
        putLong(plain, 16, histogram.getLowestDiscernibleValue());
        putLong(plain, 24, histogram.getHighestTrackableValue());
        putLong(plain, 32, Double.doubleToRawLongBits(1.0));
    }

    /** One ZigZag LEB128 word of at most nine bytes, the ninth carrying eight bits. */
    private void word(final long signed) {
        if (plainLength + MAX_WORD_BYTES > plain.length) {
            plain = Arrays.copyOf(plain, plain.length * 2);
        }
        final long value = signed << 1 ^ signed >> 63;
        for (int shift = 0; shift < 56; shift += 7) {
            if (value >>> shift + 7 == 0) {
                plain[plainLength++] = (byte) (value >>> shift);
                return;
            }
            plain[plainLength++] = (byte) (value >>> shift | 0x80);
        }
        plain[plainLength++] = (byte) (value >>> 56);
    }

    private static void putLong(final byte[] into, final int at, final long value) {
        putInt(into, at, (int) (value >>> 32));
        putInt(into, at + 4, (int) value);
    }

    private static void putInt(final byte[] into, final int at, final int value) {
        into[at] = (byte) (value >>> 24);
        into[at + 1] = (byte) (value >>> 16);
        into[at + 2] = (byte) (value >>> 8);
        into[at + 3] = (byte) value;
    }

    /** A count of thousandths as a decimal with three places, as {@code %.3f} prints it. */
    private void thousandths(final long value) {
        if (value < 0) {
            ascii("-");
        }
        final long magnitude = Math.abs(value);
        decimal(magnitude / 1000);
        ascii(".");
        final long fraction = magnitude % 1000;
        ensure(3);
        text[length++] = (byte) ('0' + fraction / 100);
        text[length++] = (byte) ('0' + fraction / 10 % 10);
        text[length++] = (byte) ('0' + fraction % 10);
    }

    private void decimal(final long value) {
        if (value >= 10) {
            decimal(value / 10);
        }
        ensure(1);
        text[length++] = (byte) ('0' + value % 10);
    }

    private void ascii(final String s) {
        ensure(s.length());
        for (int i = 0; i < s.length(); i++) {
            text[length++] = (byte) s.charAt(i);
        }
    }

    private void ensure(final int more) {
        if (length + more > text.length) {
            text = Arrays.copyOf(text, Math.max(text.length * 2, length + more));
        }
    }
}
