package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.hiccup.HiccupRecorder;
import io.mech.hiccup.HiccupSettings;
import io.mech.testing.Await;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * Every snapshot of an interval shares one histogram, so scrapes on several threads compute
 * from it at once: none may fail or read a torn answer (HdrHistogram's getMean walks an iterator
 * the histogram keeps for itself).
 */
class SharedDistributionTest {

    private static final long MS = 1_000_000L;

    @Test
    void concurrentScrapesOfOneIntervalsHistogramAllSucceed() throws Exception {
        final HiccupRecorder hiccups = HiccupRecorder.start(new HiccupSettings(MS, 50 * MS, 0, 2 * MS, null), line -> { });
        try {
            Await.until("an interval", Duration.ofSeconds(10), () -> hiccups.snapshot().intervals() > 0);
            final List<Throwable> failures = new CopyOnWriteArrayList<>();
            final List<Double> sums = new CopyOnWriteArrayList<>();
            final CountDownLatch go = new CountDownLatch(1);
            final Thread[] scrapers = new Thread[4];
            for (int t = 0; t < scrapers.length; t++) {
                scrapers[t] = new Thread(() -> {
                    try {
                        go.await();
                        for (int i = 0; i < 300; i++) {
                            // a new instance has no cache: every collect computes from the shared histogram
                            final HiccupFamilies families = new HiccupFamilies(Map.of(Labels.of("jvm", "host"), hiccups::snapshot), false);
                            sums.add(((SummarySnapshot) families.collect().get(1))
                                .getDataPoints().get(0).getSum());
                        }
                    } catch (final Throwable e) {
                        failures.add(e);
                    }
                });
                scrapers[t].start();
            }
            go.countDown();
            for (final Thread scraper : scrapers) {
                scraper.join();
            }
            assertEquals(List.of(), failures);
            assertEquals(scrapers.length * 300, sums.size());
            assertTrue(sums.stream().allMatch(sum -> Double.isFinite(sum) && sum >= 0), "sums: " + sums.stream().distinct().toList());
        } finally {
            hiccups.close();
        }
    }
}
