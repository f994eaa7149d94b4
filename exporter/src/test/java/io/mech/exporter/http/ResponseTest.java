package io.mech.exporter.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A response goes out in one write, head and body, up to a body of 256 KiB: a client then reads it in one wake-up. */
class ResponseTest {

    private final Deadlines deadlines = new Deadlines(1, new Drops() {
        @Override
        public void timedOut() {
            throw new AssertionError("no deadline passes here");
        }

        @Override
        public void disconnected() {
            throw new AssertionError("no client leaves here");
        }

        @Override
        public void rejected() {
            throw new AssertionError("nothing is rejected here");
        }
    });

    /** Each write's length, and all that was written. */
    private static final class Writes extends OutputStream {
        final List<Integer> lengths = new ArrayList<>();
        final ByteArrayOutputStream all = new ByteArrayOutputStream();

        @Override
        public void write(final int b) {
            lengths.add(1);
            all.write(b);
        }

        @Override
        public void write(final byte[] b, final int off, final int len) {
            lengths.add(len);
            all.write(b, off, len);
        }
    }

    @Test
    void aScrapesBodyGoesInTheSameWriteAsItsHeadAndALargerOneAfterIt() throws IOException {
        final Response response = new Response(deadlines.slot(0));
        for (final int size : new int[] {100, 16 * 1024, 200 * 1024, 300 * 1024}) {
            final byte[] body = new byte[size];
            Arrays.fill(body, (byte) 'x');
            final Writes out = new Writes();
            response.reset(out, false, false);
            response.send(200, "text/plain", null, body, body.length);
            final byte[] sent = out.all.toByteArray();
            final String head = new String(sent, 0, sent.length - size, StandardCharsets.ISO_8859_1);
            assertTrue(head.startsWith("HTTP/1.1 200 ") && head.contains("\r\nContent-Length: " + size + "\r\n") && head.endsWith("\r\n\r\n"),
                head);
            assertArrayEquals(body, Arrays.copyOfRange(sent, sent.length - size, sent.length), size + " bytes of body");
            assertEquals(size <= 200 * 1024 ? 1 : 2, out.lengths.size(), size + " bytes of body: writes " + out.lengths);
        }
    }
}
