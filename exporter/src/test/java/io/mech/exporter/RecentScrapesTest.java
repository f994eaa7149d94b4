package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.testing.Await;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * A crowd of scrapers costs few collections: a plain GET within {@link RecentScrapes#FRESH_NANOS}
 * of the last one asked the same way is answered what that one was, and a query or a later
 * scrape collects afresh.
 */
class RecentScrapesTest {

    private static final long MS = 1_000_000L;
    private static final String ACCEPT = "text/plain;version=0.0.4";

    private static RecentScrapes.Answer answer(final String accept, final long madeNanos) {
        return new RecentScrapes.Answer(accept, "gzip", madeNanos, "text/plain", "gzip", new byte[] {1});
    }

    @Test
    void anAnswerIsFoundForItsWayOfAskingWhileFresh() {
        final RecentScrapes recent = new RecentScrapes();
        final RecentScrapes.Answer text = answer(ACCEPT, 1_000 * MS);
        recent.keep(text);
        assertSame(text, recent.find(ACCEPT, "gzip", 1_000 * MS + RecentScrapes.FRESH_NANOS - 1));
        assertNull(recent.find(ACCEPT, "gzip", 1_000 * MS + RecentScrapes.FRESH_NANOS), "no longer fresh");
        assertNull(recent.find(ACCEPT, null, 1_000 * MS), "asked without gzip");
        assertNull(recent.find(null, "gzip", 1_000 * MS), "asked without Accept");
        final RecentScrapes.Answer later = answer(ACCEPT, 1_100 * MS);
        recent.keep(later);
        assertSame(later, recent.find(ACCEPT, "gzip", 1_150 * MS), "the later answer replaces the earlier");
    }

    @Test
    void aFifthWayOfAskingTakesTheOldestPlace() {
        final RecentScrapes recent = new RecentScrapes();
        for (int i = 0; i < 4; i++) {
            recent.keep(answer("way " + i, (10 + i) * MS));
        }
        recent.keep(answer("way 4", 20 * MS));
        assertNull(recent.find("way 0", "gzip", 21 * MS), "the oldest went");
        for (int i = 1; i <= 4; i++) {
            assertNotNull(recent.find("way " + i, "gzip", 21 * MS), "way " + i + " stays");
        }
    }

    /** A source of one gauge that counts its collections. */
    private static final class Counted implements MetricFamilies {
        final AtomicLong collections = new AtomicLong();
        final AtomicLong value = new AtomicLong();

        @Override
        public List<String> names() {
            return List.of("crowd_value");
        }

        @Override
        public List<io.prometheus.metrics.model.snapshots.MetricSnapshot> collect() {
            collections.incrementAndGet();
            return List.of(GaugeSnapshot.builder().name("crowd_value").help("a value the test moves")
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value.get()).build()).build());
        }
    }

    private static String gunzip(final byte[] body) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aCrowdIsAnsweredFromFewCollectionsAndALaterOrFilteredScrapeCollectsAfresh() throws Exception {
        final Counted source = new Counted();
        final List<String> warnings = new ArrayList<>();
        final PrometheusEndpoint endpoint = PrometheusEndpoint.start(
            new ExporterSettings("127.0.0.1", 0, "", null, null, null, false, false), List.of(source), warnings::add, () -> true);
        assertNotNull(endpoint, warnings.toString());
        // four scrapers: the endpoint serves four at once and refuses a crowd past its bound by design (SlowClientsTest)
        final ExecutorService crowd = Executors.newFixedThreadPool(4);
        try {
            final URI metrics = URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics");
            final HttpClient http = HttpClient.newHttpClient();
            final HttpRequest gzipped = HttpRequest.newBuilder(metrics).header("Accept", ACCEPT).header("Accept-Encoding", "gzip").build();
            final int scrapes = 200;
            final List<Future<String>> bodies = new ArrayList<>();
            final long start = System.nanoTime();
            for (int i = 0; i < scrapes; i++) {
                bodies.add(crowd.submit(() -> {
                    final HttpResponse<byte[]> response = http.send(gzipped, HttpResponse.BodyHandlers.ofByteArray());
                    assertEquals(200, response.statusCode());
                    assertEquals("gzip", response.headers().firstValue("Content-Encoding").orElse(""));
                    return gunzip(response.body());
                }));
            }
            for (final Future<String> body : bodies) {
                assertTrue(body.get(30, TimeUnit.SECONDS).contains("\ncrowd_value 0.0\n"), body.get());
            }
            final long windows = (System.nanoTime() - start) / RecentScrapes.FRESH_NANOS + 1;
            // a miss is collected by each of the endpoint's 4 scrape threads at most, once a window
            assertTrue(source.collections.get() <= 4 * windows,
                source.collections.get() + " collections for " + scrapes + " scrapes in " + windows + " windows");

            source.value.set(7);
            final HttpRequest filtered = HttpRequest.newBuilder(URI.create(metrics + "?name[]=crowd_value")).build();
            assertTrue(http.send(filtered, HttpResponse.BodyHandlers.ofString()).body().contains("\ncrowd_value 7.0\n"),
                "a query collects afresh");
            // asked as the crowd asked: answered again until the answer is no longer fresh
            Await.until("a plain scrape answering the new value", Duration.ofSeconds(5),
                () -> gunzip(http.send(gzipped, HttpResponse.BodyHandlers.ofByteArray()).body()).contains("\ncrowd_value 7.0\n"));
        } finally {
            crowd.shutdownNow();
            endpoint.close();
        }
    }
}
