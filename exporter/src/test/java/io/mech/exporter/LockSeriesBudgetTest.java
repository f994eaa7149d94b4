package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.probes.locks.BlockedHistogram;
import io.mech.probes.locks.LockKind;
import io.mech.probes.locks.LockSite;
import io.mech.probes.locks.LockSnapshot;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBucket;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, finding 4: the lock sites' series stay within a budget; the sites beyond it are
 * summed exactly into {@code other}, and buckets below the probe's threshold are left out.
 */
class LockSeriesBudgetTest {

    private static final long THRESHOLD_NANOS = 1_000_000;
    private static final int SITES = 1_000;

    /** 1,000 sites of all kinds, in no particular order; every block at least {@link #THRESHOLD_NANOS} long. */
    private static List<LockSite> sites(final long seed) {
        final Random random = new Random(seed);
        final List<LockSite> sites = new ArrayList<>();
        for (int i = 0; i < SITES; i++) {
            final long[] counts = new long[BlockedHistogram.BUCKETS];
            long total = 0;
            long max = 0;
            final int blocks = 1 + random.nextInt(20);
            for (int b = 0; b < blocks; b++) {
                final long nanos = THRESHOLD_NANOS + (long) (random.nextDouble() * random.nextDouble() * 5e9);
                counts[BlockedHistogram.bucket(nanos)]++;
                total += nanos;
                max = Math.max(max, nanos);
            }
            sites.add(new LockSite(LockKind.values()[i % LockKind.values().length], "app.Lock" + (i % 37), "app.Caller.m" + i + ":" + i,
                blocks, total, max, BlockedHistogram.of(counts), List.of()));
        }
        Collections.shuffle(sites, random);
        return sites;
    }

    private static LockSnapshot snapshot(final long thresholdNanos, final List<LockSite> sites) {
        return new LockSnapshot(LockSnapshot.Source.JFR, thresholdNanos, true, sites, List.of(), List.of(), 0, -1, 0);
    }

    private static <T extends MetricSnapshot> T family(final List<MetricSnapshot> families, final String name, final Class<T> type) {
        for (final MetricSnapshot family : families) {
            if (family.getMetadata().getName().equals(name)) {
                return type.cast(family);
            }
        }
        throw new AssertionError(name + " missing");
    }

    /** The sample lines Prometheus would store for the sites' two families. */
    private static long seriesInText(final List<MetricSnapshot> families) throws Exception {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, MetricSnapshots.of(families.toArray(new MetricSnapshot[0])), EscapingScheme.ALLOW_UTF8);
        return out.toString(StandardCharsets.UTF_8).lines()
            .filter(line -> line.startsWith("mech_lock_blocked_seconds") || line.startsWith("mech_lock_blocked_max_seconds")).count();
    }

    private static String key(final LockKind kind, final String lockClass, final String site) {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + "|" + lockClass + "|" + site;
    }

    @Test
    void athousandSitesFitTheBudgetAndOtherCarriesTheRestExactly() throws Exception {
        final List<LockSite> sites = sites(21);
        final List<MetricSnapshot> families = new LockFamilies(() -> snapshot(THRESHOLD_NANOS, sites)).collect();
        assertTrue(seriesInText(families) <= LockFamilies.SERIES_BUDGET, "series: " + seriesInText(families));

        final HistogramSnapshot blocked = family(families, "mech_lock_blocked_seconds", HistogramSnapshot.class);
        final GaugeSnapshot longest = family(families, "mech_lock_blocked_max_seconds", GaugeSnapshot.class);
        final Map<String, LockSite> byKey = new HashMap<>();
        for (final LockSite site : sites) {
            byKey.put(key(site.kind(), site.lockClass(), site.callSite()), site);
        }
        final Map<String, Double> maxima = new HashMap<>();
        for (final GaugeSnapshot.GaugeDataPointSnapshot point : longest.getDataPoints()) {
            maxima.put(point.getLabels().get("kind") + "|" + point.getLabels().get("class") + "|" + point.getLabels().get("site"),
                point.getValue());
        }
        final List<LockSite> remainder = new ArrayList<>(sites);
        long lightestShown = Long.MAX_VALUE;
        int others = 0;
        for (final HistogramSnapshot.HistogramDataPointSnapshot point : blocked.getDataPoints()) {
            final String key = point.getLabels().get("kind") + "|" + point.getLabels().get("class") + "|" + point.getLabels().get("site");
            assertTrue(maxima.containsKey(key), "a maximum for " + key);
            if (point.getLabels().get("site").equals(LockFamilies.OTHER)) {
                others++;
                continue;
            }
            final LockSite site = byKey.get(key);
            assertEquals(site.totalNanos() / 1e9, point.getSum(), key);
            assertEquals(site.count(), point.getCount(), key);
            lightestShown = Math.min(lightestShown, site.totalNanos());
            remainder.remove(site);
        }
        assertTrue(others > 0 && others <= LockKind.values().length, "other rows: " + others);
        assertTrue(remainder.size() > SITES / 2, "most sites are summed: " + remainder.size());

        for (final LockKind kind : LockKind.values()) {
            long count = 0;
            long totalNanos = 0;
            long maxNanos = 0;
            final long[] cumulative = new long[BlockedHistogram.BUCKETS];
            for (final LockSite site : remainder) {
                if (site.kind() != kind) {
                    continue;
                }
                assertTrue(site.totalNanos() <= lightestShown, "the heaviest sites keep their rows");
                count += site.count();
                totalNanos += site.totalNanos();
                maxNanos = Math.max(maxNanos, site.maxNanos());
                long running = 0;
                for (int b = 0; b < BlockedHistogram.BUCKETS; b++) {
                    running += site.histogram().count(b);
                    cumulative[b] += running;
                }
            }
            final String otherKey = key(kind, LockFamilies.OTHER, LockFamilies.OTHER);
            final HistogramSnapshot.HistogramDataPointSnapshot other = blocked.getDataPoints().stream()
                .filter(p -> (p.getLabels().get("kind") + "|" + p.getLabels().get("class") + "|" + p.getLabels().get("site")).equals(otherKey))
                .findFirst().orElseThrow(() -> new AssertionError(otherKey));
            assertEquals(count, other.getCount(), otherKey);
            assertEquals(totalNanos / 1e9, other.getSum(), otherKey);
            assertEquals(maxNanos / 1e9, maxima.get(otherKey), otherKey);
            for (final ClassicHistogramBucket bucket : cumulativeBuckets(other)) {
                final int b = bucketOf(bucket.getUpperBound());
                assertEquals(cumulative[b], bucket.getCount(), otherKey + " le=" + bucket.getUpperBound());
            }
        }
    }

    /** The buckets of a point with cumulative counts, as the text format shows them. */
    private static List<ClassicHistogramBucket> cumulativeBuckets(final HistogramSnapshot.HistogramDataPointSnapshot point) {
        final List<ClassicHistogramBucket> buckets = new ArrayList<>();
        long running = 0;
        for (final ClassicHistogramBucket bucket : point.getClassicBuckets()) {
            running += bucket.getCount();
            buckets.add(new ClassicHistogramBucket(bucket.getUpperBound(), running));
        }
        return buckets;
    }

    private static int bucketOf(final double upperBoundSeconds) {
        for (int b = 0; b < BlockedHistogram.BUCKETS - 1; b++) {
            if (BlockedHistogram.upperBoundNanos(b) / 1e9 == upperBoundSeconds) {
                return b;
            }
        }
        assertEquals(Double.POSITIVE_INFINITY, upperBoundSeconds);
        return BlockedHistogram.BUCKETS - 1;
    }

    /** Blocks below the threshold (JFR's threshold is JVM-wide, a lower one elsewhere lets them through) count in the first bucket shown. */
    @Test
    void bucketsBelowTheThresholdAreLeftOut() {
        for (final long threshold : new long[] {0, THRESHOLD_NANOS, 20 * THRESHOLD_NANOS, 100 * THRESHOLD_NANOS}) {
            final List<LockSite> sites = sites(threshold).subList(0, 3);
            final HistogramSnapshot blocked = family(new LockFamilies(() -> snapshot(threshold, sites)).collect(),
                "mech_lock_blocked_seconds", HistogramSnapshot.class);
            int below = 0;
            while (BlockedHistogram.upperBoundNanos(below) <= threshold) {
                below++;
            }
            assertEquals(sites.size(), blocked.getDataPoints().size());
            for (final HistogramSnapshot.HistogramDataPointSnapshot point : blocked.getDataPoints()) {
                assertEquals(BlockedHistogram.BUCKETS - below, point.getClassicBuckets().size(), "threshold " + threshold);
                assertTrue(point.getClassicBuckets().getUpperBound(0) * 1e9 > threshold, "threshold " + threshold);
                final LockSite site = sites.stream().filter(l -> l.callSite().equals(point.getLabels().get("site"))).findFirst().orElseThrow();
                long atOrBelowFirst = 0;
                for (int b = 0; b <= below; b++) {
                    atOrBelowFirst += site.histogram().count(b);
                }
                assertEquals(atOrBelowFirst, point.getClassicBuckets().getCount(0), "threshold " + threshold);
                assertEquals(site.count(), point.getCount(), "threshold " + threshold);
            }
        }
    }

    @Test
    void sitesWithinTheBudgetAreAllShown() {
        final List<LockSite> sites = sites(7).subList(0, 50);
        final HistogramSnapshot blocked = family(new LockFamilies(() -> snapshot(THRESHOLD_NANOS, sites)).collect(),
            "mech_lock_blocked_seconds", HistogramSnapshot.class);
        assertEquals(sites.size(), blocked.getDataPoints().size());
        assertTrue(blocked.getDataPoints().stream().noneMatch(p -> p.getLabels().get("site").equals(LockFamilies.OTHER)));
    }
}
