package io.mech.exporter;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The last whole answer to {@code /metrics} for each way of asking (Accept and Accept-Encoding),
 * answered again to scrapes that come within {@link #FRESH_NANOS} of it.
 *
 * <p>Why: a crowd of scrapers made mech collect and format once a scrape. Within
 * {@link #FRESH_NANOS} a crowd costs one collection, whatever its size: 50 concurrent scrapers
 * were answered 1,547 times a second against 803 (the bench's scrape part). The host's resident
 * set grows under such a crowd all the same; that growth does not come from the collections.
 * A Prometheus scrapes a target at most once a second, so its scrapes always collect afresh.
 *
 * <p>Thread contract: scrape threads call {@link #find} and {@link #keep} concurrently. An
 * answer is immutable and published through the array's volatile slots; two threads that miss
 * at once both collect, and the later one's answer stays.
 */
final class RecentScrapes {

    /** How long an answer is answered again: shorter than any scrape interval Prometheus allows, 1 s. */
    static final long FRESH_NANOS = 200_000_000L;
    /** Ways of asking kept: Prometheus' text, OpenMetrics and protobuf, with and without gzip, are rarely all in use. */
    private static final int KEPT = 4;

    /**
     * A whole answer as it was sent.
     *
     * @param accept          the Accept header it answered, or null
     * @param encoding        the Accept-Encoding header it answered, or null
     * @param madeNanos       when it was collected
     * @param contentType     its Content-Type
     * @param contentEncoding its Content-Encoding, or null
     * @param body            its body, compressed as sent
     */
    record Answer(String accept, String encoding, long madeNanos, String contentType, String contentEncoding, byte[] body) {

        boolean answers(final String acceptAsked, final String encodingAsked) {
            return Objects.equals(accept, acceptAsked) && Objects.equals(encoding, encodingAsked);
        }
    }

    private final AtomicReferenceArray<Answer> kept = new AtomicReferenceArray<>(KEPT);

    /** @return the answer to this way of asking collected within {@link #FRESH_NANOS} of {@code nowNanos}, or null */
    Answer find(final String accept, final String encoding, final long nowNanos) {
        for (int i = 0; i < KEPT; i++) {
            final Answer answer = kept.get(i);
            if (answer != null && answer.answers(accept, encoding)) {
                return nowNanos - answer.madeNanos() < FRESH_NANOS ? answer : null;
            }
        }
        return null;
    }

    /** Keeps an answer in place of the one to the same way of asking, else of the oldest. */
    void keep(final Answer answer) {
        int slot = 0;
        for (int i = 0; i < KEPT; i++) {
            final Answer old = kept.get(i);
            if (old == null || old.answers(answer.accept(), answer.encoding())) {
                slot = i;
                break;
            }
            if (old.madeNanos() - kept.get(slot).madeNanos() < 0) {
                slot = i;
            }
        }
        kept.set(slot, answer);
    }
}
