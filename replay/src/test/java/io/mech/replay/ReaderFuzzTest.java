package io.mech.replay;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A seeded mutation loop over the log reader and payload decoder: 100,000 damaged variants of
 * small logs, each read to the end, strict and lenient in turn. Only the reader's own failures
 * (a {@code file:line:} LogFormatException, an IOException) may come out; anything else, or a
 * run past the time limit, fails the test with the seed and case that caused it.
 */
class ReaderFuzzTest {

    private static final int CASES = 100_000;
    private static final long SEED = 0x6d656368L;
    /** Bytes that a log's grammar gives meaning to: mutating into them reaches past the first check. */
    private static final String ALPHABET = "0123456789,.-+=#\n\rAZaz/";

    @Test
    void noMutationEscapesOrHangs() throws Exception {
        final byte[][] seeds = new byte[TestLogs.ALL.size()][];
        for (int i = 0; i < seeds.length; i++) {
            // Five lines of each log: header and a few intervals keep each case small.
            final String text = new String(TestLogs.bytes(TestLogs.ALL.get(i)), StandardCharsets.US_ASCII);
            int end = 0;
            for (int line = 0; line < 7 && end >= 0; line++) {
                end = text.indexOf('\n', end + 1);
            }
            seeds[i] = text.substring(0, end + 1).getBytes(StandardCharsets.US_ASCII);
        }
        final long[] outcomes = new long[3];
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            final Random random = new Random(SEED);
            final PayloadDecoder decoder = new PayloadDecoder();
            for (int c = 0; c < CASES; c++) {
                // In blocks per seed log, so that the decoder keeps its histogram shape from case to case.
                final byte[] log = mutate(seeds[c * seeds.length / CASES], random);
                try {
                    outcomes[read(log, (c & 1) == 1, decoder)]++;
                } catch (final RuntimeException | Error e) {
                    throw new AssertionError("case " + c + " (seed " + SEED + ") escaped: " + e + "\n"
                        + new String(log, StandardCharsets.ISO_8859_1), e);
                }
            }
        });
        // The loop must exercise both outcomes, or it tests nothing.
        assertTrue(outcomes[0] > CASES / 20 && outcomes[1] > CASES / 20, Arrays.toString(outcomes));
    }

    /** 0 when the log read through, 1 when it was refused as damaged, 2 when reading failed. */
    private static int read(final byte[] log, final boolean lenient, final PayloadDecoder decoder) {
        final IntervalLogReader reader = new IntervalLogReader("fuzz.hlog", new LineReader(new ByteArrayInputStream(log)), lenient,
            w -> { }, decoder);
        try {
            while (reader.next()) {
                reader.interval();
            }
            return 0;
        } catch (final LogFormatException e) {
            assertTrue(e.getMessage().startsWith("fuzz.hlog:"), e.getMessage());
            return 1;
        } catch (final IOException e) {
            return 2;
        }
    }

    private static byte[] mutate(final byte[] seed, final Random random) {
        byte[] log = seed.clone();
        final int mutations = 1 + random.nextInt(4);
        for (int m = 0; m < mutations; m++) {
            final int at = random.nextInt(log.length);
            switch (random.nextInt(6)) {
                case 0 -> log[at] = (byte) random.nextInt(256);
                case 1 -> log[at] = (byte) ALPHABET.charAt(random.nextInt(ALPHABET.length()));
                case 2 -> log = Arrays.copyOf(log, at);
                case 3 -> {
                    final int length = Math.min(log.length - at, 1 + random.nextInt(40));
                    final byte[] shorter = new byte[log.length - length];
                    System.arraycopy(log, 0, shorter, 0, at);
                    System.arraycopy(log, at + length, shorter, at, log.length - at - length);
                    log = shorter;
                }
                case 4 -> {
                    final int length = Math.min(log.length - at, 1 + random.nextInt(200));
                    final byte[] longer = Arrays.copyOf(log, log.length + length);
                    System.arraycopy(log, at, longer, at + length, log.length - at);
                    log = longer;
                }
                default -> log[at] ^= (byte) (1 << random.nextInt(8));
            }
            if (log.length == 0) {
                break;
            }
        }
        return log;
    }
}
