/**
 * mech's own HTTP/1.1 server for {@code /metrics}: a few threads of its own, deadlines on every
 * read and write, bounded waiting, and no garbage per request beyond what the handler makes.
 *
 * <p>Why not the JDK's server: it loads some 180 classes at its first exchange (a logger and a
 * date formatter among them), makes a few kilobytes of garbage per exchange, which under a crowd
 * of scrapers grew the host's heap and resident set by some 170 MiB, and has no deadlines of its
 * own but system properties shared with the host's servers. This package knows nothing of
 * Prometheus: {@link io.mech.exporter.http.HttpServer} hands each request to a
 * {@link io.mech.exporter.http.Handler}.
 */
package io.mech.exporter.http;
