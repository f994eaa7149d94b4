package io.mech.exporter;

import io.mech.exporter.http.Drops;
import io.mech.exporter.http.HttpServer;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Scrape connections the endpoint gave up on, by reason: what a slow, silent or vanished client
 * costs instead of a thread held for good or a stack trace in the host's log. Counted from the
 * server's serving, deadline and accepting threads; read at every scrape.
 */
final class ClientErrors implements MetricFamilies, Drops {

    /** Why a connection was given up on. */
    enum Reason {
        /** The request was not read, or the response not taken, within its deadline. */
        TIMEOUT,
        /** The client went away while its response was being written. */
        DISCONNECT,
        /** Every scrape thread was busy and the waiting list full: the connection was closed unanswered. */
        REJECTED;

        private final Labels labels = Labels.of("reason", name().toLowerCase(Locale.ROOT));
    }

    private static final Reason[] REASONS = Reason.values();

    private final MetricMetadata family = Metadata.counter("mech_exporter_client_errors", null,
        "Scrape connections mech's endpoint dropped: timeout (request not read within "
            + HttpServer.READ_TIMEOUT_SECONDS + " s, or response not taken within "
            + HttpServer.WRITE_TIMEOUT_SECONDS + " s), disconnect (client gone mid-request or mid-response), rejected (all "
            + HttpServer.MAX_THREADS + " serving threads busy and " + HttpServer.MAX_WAITING + " connections waiting)");

    private final AtomicLongArray counts = new AtomicLongArray(REASONS.length);

    void count(final Reason reason) {
        counts.incrementAndGet(reason.ordinal());
    }

    @Override
    public void timedOut() {
        count(Reason.TIMEOUT);
    }

    @Override
    public void disconnected() {
        count(Reason.DISCONNECT);
    }

    @Override
    public void rejected() {
        count(Reason.REJECTED);
    }

    /** @return the connections given up on for this reason so far */
    long total(final Reason reason) {
        return counts.get(reason.ordinal());
    }

    @Override
    public List<String> names() {
        return List.of("mech_exporter_client_errors");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final List<CounterSnapshot.CounterDataPointSnapshot> errors = new ArrayList<>(REASONS.length);
        for (final Reason reason : REASONS) {
            errors.add(OnePoint.counterPoint(reason.labels, counts.get(reason.ordinal())));
        }
        return List.of(new CounterSnapshot(family, errors));
    }
}
