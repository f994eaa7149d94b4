package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.probes.locks.BlockedHistogram;
import io.mech.probes.locks.Inflation;
import io.mech.probes.locks.JucContention;
import io.mech.probes.locks.LockKind;
import io.mech.probes.locks.LockSite;
import io.mech.probes.locks.LockSnapshot;
import io.mech.probes.locks.ThreadCount;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class LockFamiliesTest {

    private static BlockedHistogram histogram(final long... nanos) {
        final long[] counts = new long[BlockedHistogram.BUCKETS];
        for (final long n : nanos) {
            counts[BlockedHistogram.bucket(n)]++;
        }
        return BlockedHistogram.of(counts);
    }

    @Test
    void exposesBlockingContentionAndInflationWithTheirLabels() throws Exception {
        final LockSnapshot snapshot = new LockSnapshot(LockSnapshot.Source.JFR, 1_000_000, true,
            List.of(new LockSite(LockKind.MONITOR_ENTER, "app.Account", "app.Bank.transfer:42", 2, 5_000_000, 3_000_000,
                histogram(2_000_000, 3_000_000), List.of(new ThreadCount("worker-1", 2)))),
            List.of(new JucContention("java.util.concurrent.locks.ReentrantLock", "", 3, 30_000, 20_000,
                histogram(5_000, 5_000, 20_000))),
            List.of(new Inflation("app.Mailbox", "Monitor Wait", 4)), 0, 7, 0);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, MetricSnapshots.of(new LockFamilies(() -> snapshot).collect()
            .toArray(new io.prometheus.metrics.model.snapshots.MetricSnapshot[0])), EscapingScheme.ALLOW_UTF8);
        final String text = out.toString(StandardCharsets.UTF_8);
        for (final String line : List.of(
            "mech_lock_blocked_seconds_count{class=\"app.Account\",kind=\"monitor_enter\",site=\"app.Bank.transfer:42\"} 2",
            "mech_lock_blocked_seconds_sum{class=\"app.Account\",kind=\"monitor_enter\",site=\"app.Bank.transfer:42\"} 0.005",
            "mech_lock_blocked_max_seconds{class=\"app.Account\",kind=\"monitor_enter\",site=\"app.Bank.transfer:42\"} 0.003",
            "mech_lock_contended_acquisition_seconds_count{class=\"java.util.concurrent.locks.ReentrantLock\",mode=\"exclusive\"} 3",
            "mech_lock_contended_acquisition_seconds_bucket{class=\"java.util.concurrent.locks.ReentrantLock\",mode=\"exclusive\",le=\"8.192E-6\"} 2",
            "mech_lock_monitor_inflations_total{cause=\"monitor_wait\",class=\"app.Mailbox\"} 4.0",
            "mech_lock_monitors_in_use 7.0")) {
            assertTrue(text.contains(line + "\n"), line + " in\n" + text);
        }
    }
}
