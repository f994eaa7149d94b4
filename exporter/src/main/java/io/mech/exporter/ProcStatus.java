package io.mech.exporter;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;

/**
 * {@code /proc/self/status}, opened once and read again from its start at each scrape into one
 * buffer: the kernel writes the file afresh on every read from offset 0, so no scrape opens a
 * file, makes a channel or a string, or allocates at all. Opening and reading it anew through
 * {@code Files.newInputStream} was 7% of a cold scrape's CPU (async-profiler, scrapes 20 to 120
 * of a fresh host), most of it interpreted NIO code run once a scrape.
 *
 * <p>Thread contract: scrapes may read concurrently; {@link #kilobytes} serialises them on this
 * object, and the buffer is never seen outside it.
 */
final class ProcStatus {

    /** /proc/self/status is about 1.5 KB; what lies beyond is not needed. */
    private static final int BYTES = 4096;

    private final RandomAccessFile file;
    private final byte[] text = new byte[BYTES];

    private ProcStatus(final RandomAccessFile file) {
        this.file = file;
    }

    /** @return the process' status file, or null where there is none (not Linux) */
    static ProcStatus open() {
        try {
            return new ProcStatus(new RandomAccessFile("/proc/self/status", "r"));
        } catch (final IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Reads the file now and gives two of its figures.
     *
     * @param keys      the lines wanted, such as {@code VmSize:}, as ISO-8859-1 bytes
     * @param kilobytes where each key's kilobytes go, -1 for a line missing or holding no number
     * @return false when the file could not be read, and nothing was written
     */
    synchronized boolean kilobytes(final byte[][] keys, final long[] kilobytes) {
        int length = 0;
        try {
            file.seek(0);
            for (int read; length < BYTES && (read = file.read(text, length, BYTES - length)) > 0;) {
                length += read;
            }
        } catch (final IOException e) {
            return false;
        }
        for (int i = 0; i < keys.length; i++) {
            kilobytes[i] = kilobytes(text, length, keys[i]);
        }
        return true;
    }

    /** A key as {@link #kilobytes(byte[][], long[])} takes it. */
    static byte[] key(final String key) {
        return key.getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * The kilobytes on the line of {@code text} that starts with the key ({@code VmRSS:     1234 kB});
     * -1 when the line is missing or holds no number.
     */
    static long kilobytes(final byte[] text, final int length, final byte[] key) {
        for (int line = 0; line < length; line++) {
            if (startsWith(text, line, length, key)) {
                int at = line + key.length;
                while (at < length && (text[at] == ' ' || text[at] == '\t')) {
                    at++;
                }
                long value = 0;
                int digits = 0;
                while (at < length && text[at] >= '0' && text[at] <= '9') {
                    value = value * 10 + (text[at++] - '0');
                    digits++;
                }
                return digits == 0 ? -1 : value;
            }
            while (line < length && text[line] != '\n') {
                line++;
            }
        }
        return -1;
    }

    private static boolean startsWith(final byte[] text, final int at, final int length, final byte[] key) {
        if (at + key.length > length) {
            return false;
        }
        for (int i = 0; i < key.length; i++) {
            if (text[at + i] != key[i]) {
                return false;
            }
        }
        return true;
    }
}
