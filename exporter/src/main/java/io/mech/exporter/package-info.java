/**
 * Prometheus exposition of what mech measures, through client_java 1.x, whose text formats are
 * served as they are and whose protobuf format mech writes itself
 * ({@link io.mech.exporter.ProtobufExposition}, without a protobuf runtime). Each source of
 * measurements (the hiccup recorder now, the probes later) is adapted by one
 * {@link io.mech.exporter.MetricFamilies} that reads its immutable snapshots at scrape time:
 * exporter/ depends on the producers, never the other way round.
 *
 * <p>Entry point: {@link io.mech.exporter.PrometheusEndpoint}.
 */
package io.mech.exporter;
