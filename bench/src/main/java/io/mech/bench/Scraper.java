package io.mech.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Scrapes a /metrics endpoint on loopback, as Prometheus would. */
final class Scraper {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final HttpRequest request;
    private final HttpRequest healthy;

    /** A scraper that asks for protobuf, as a Prometheus with native histograms does. */
    Scraper(final int port) {
        this(port, true);
    }

    /** @param protobuf whether to ask for protobuf, else for the text format a default Prometheus asks for */
    Scraper(final int port, final boolean protobuf) {
        final HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
            .timeout(Duration.ofSeconds(10));
        this.request = (protobuf
            ? builder.header("Accept", "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited")
            : builder.header("Accept", "text/plain;version=0.0.4")).build();
        this.healthy = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/-/healthy")).timeout(Duration.ofSeconds(10)).build();
    }

    /** One request of /-/healthy, which does nothing; true when it answered 200. */
    boolean healthy() throws InterruptedException {
        try {
            return http.send(healthy, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (final IOException e) {
            return false;
        }
    }

    /**
     * One series' value from a text-format scrape, or 0 when the scrape does not list it.
     *
     * @param series the series as the text format writes it, name and labels
     */
    double value(final String series) throws IOException, InterruptedException {
        final HttpRequest text = HttpRequest.newBuilder(request.uri()).timeout(Duration.ofSeconds(10)).build();
        final String body = http.send(text, HttpResponse.BodyHandlers.ofString()).body();
        for (final String line : body.split("\n")) {
            if (line.startsWith(series + " ")) {
                return Double.parseDouble(line.substring(series.length() + 1).trim().split(" ")[0]);
            }
        }
        return 0;
    }

    /** One scrape; true when it answered 200. */
    boolean scrape() throws InterruptedException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (final IOException e) {
            return false;
        }
    }

    /** Waits until the endpoint answers, for at most the given seconds. */
    void awaitUp(final int seconds) throws InterruptedException, IOException {
        final long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!scrape()) {
            if (System.nanoTime() > deadline) {
                throw new IOException("no /metrics within " + seconds + " s at " + request.uri());
            }
            Thread.sleep(50);
        }
    }

    /** A daemon thread scraping once every period until interrupted. */
    Thread every(final Duration period) {
        final Thread thread = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    scrape();
                    Thread.sleep(period.toMillis());
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "bench-scraper");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
