package io.mech.agent.locks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.probes.locks.BlockedHistogram;
import io.mech.probes.locks.Inflation;
import io.mech.probes.locks.JucContention;
import io.mech.probes.locks.LockKind;
import io.mech.probes.locks.LockSite;
import io.mech.probes.locks.LockSnapshot;
import io.mech.probes.locks.ThreadCount;
import io.mech.report.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class LockLinesTest {

    private static LockSite site(final LockKind kind, final String lockClass, final long count, final List<ThreadCount> threads) {
        return new LockSite(kind, lockClass, "app.Main.run:12", count, count * 2_000_000L, 3_000_000L, BlockedHistogram.empty(), threads);
    }

    @Test
    void eachTableListsItsHeaviestRowsThenTheMonitorsAndWhatWasDropped() {
        final LockSnapshot snapshot = new LockSnapshot(LockSnapshot.Source.JFR, 1_000_000L, true,
            List.of(site(LockKind.MONITOR_ENTER, "app.Table", 4, List.of(new ThreadCount("w1", 3), new ThreadCount("w2", 1))),
                site(LockKind.PINNED, "VM call to app.Init.<clinit> on stack", 2, List.of()),
                site(LockKind.MONITOR_WAIT, "app.Queue", 1, List.of(new ThreadCount("producer", 1)))),
            List.of(new JucContention("java.util.concurrent.locks.ReentrantLock", "", 17, 5_000_000L, 1_000_000L, BlockedHistogram.empty())),
            List.of(new Inflation("app.Table", "Lock Contention", 2)), 3, 12, 1);
        assertEquals(List.of(
            "monitor contention on app.Table at app.Main.run:12: 4 blocks, 8.000 ms total, max 3.000 ms; held by w1 x3, w2 x1. "
                + LockKind.MONITOR_ENTER.reading(),
            "virtual thread pinned (VM call to app.Init.<clinit> on stack) at app.Main.run:12: 2 pins, 4.000 ms total, max 3.000 ms. "
                + LockKind.PINNED.reading(),
            "contended java.util.concurrent.locks.ReentrantLock: 17 acquisitions, 5.000 ms total, max 1.000 ms",
            "inflated app.Table: 2 (Lock Contention, contention or other)",
            "monitors: 3 deflated, 12 in use",
            "lock rows dropped (tables full): 1"), LockLines.of(snapshot, 2));
    }

    @Test
    void aWaitOnASynchronizerCountsWaitsAndIsKindJucWaitInTheJsonReport() {
        final LockSite site = site(LockKind.JUC_WAIT, "java.util.concurrent.SynchronousQueue", 3, List.of());
        assertEquals(List.of("j.u.c. wait on java.util.concurrent.SynchronousQueue at app.Main.run:12: 3 waits, 6.000 ms total, "
            + "max 3.000 ms. " + LockKind.JUC_WAIT.reading()), LockLines.of(new LockSnapshot(LockSnapshot.Source.JFR, 1_000_000L,
            true, List.of(site), List.of(), List.of(), 0, -1, 0), 10));
        final Json json = new Json().beginObject();
        new LockPart.SiteRow(site, false).writeTo(json);
        assertTrue(json.endObject().toString().contains("\"kind\":\"juc_wait\",\"class\":\"java.util.concurrent.SynchronousQueue\""),
            json::toString);
    }

    @Test
    void aSampledRowHasNoMaximumInTheJsonReport() {
        final LockSite site = site(LockKind.MONITOR_ENTER, "app.Table", 5, List.of());
        final Json sampled = new Json().beginObject();
        new LockPart.SiteRow(site, true).writeTo(sampled);
        final Json timed = new Json().beginObject();
        new LockPart.SiteRow(site, false).writeTo(timed);
        assertFalse(sampled.endObject().toString().contains("max_ms"), sampled::toString);
        assertTrue(timed.endObject().toString().contains("\"max_ms\":3.0"), timed::toString);
    }

    @Test
    void sampledRowsCountSamplesWithNoMaximumAndAQuietProbeSaysNothing() {
        final LockSnapshot sampled = new LockSnapshot(LockSnapshot.Source.SAMPLED, 10_000_000L, false,
            List.of(site(LockKind.MONITOR_ENTER, "app.Table", 5, List.of())), List.of(), List.of(), 0, -1, 0);
        assertEquals(List.of("monitor contention on app.Table at app.Main.run:12: 5 samples, 10.000 ms total. "
            + LockKind.MONITOR_ENTER.reading()), LockLines.of(sampled, 10));
        assertEquals(List.of(), LockLines.of(new LockSnapshot(LockSnapshot.Source.JFR, 1_000_000L, true, List.of(), List.of(),
            List.of(), 0, -1, 0), 10));
    }
}
