package io.mech.exporter;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A registry's scrape in the text format, for tests that set mech's families beside client_java's. */
final class ScrapeText {

    private ScrapeText() {
    }

    /** The registry scraped now, line by line. */
    static List<String> lines(final PrometheusRegistry registry) throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, registry.scrape(), EscapingScheme.ALLOW_UTF8);
        return List.of(out.toString(StandardCharsets.UTF_8).split("\n"));
    }

    /** Series lines without their values, which move between two reads; metadata lines whole. */
    static List<String> shapes(final List<String> lines) {
        final List<String> shapes = new ArrayList<>();
        for (final String line : lines) {
            shapes.add(line.startsWith("#") ? line : line.substring(0, line.lastIndexOf(' ')));
        }
        return shapes;
    }

    /**
     * The families the lines hold, sorted, by the names {@link MetricFamilies#names} declares them
     * under: without {@code _total} or {@code _info}.
     */
    static List<String> familyNames(final List<String> lines) {
        final List<String> names = new ArrayList<>();
        for (final String line : lines) {
            if (line.startsWith("# TYPE ")) {
                names.add(line.split(" ")[2].replaceAll("_(total|info)$", ""));
            }
        }
        names.sort(null);
        return names;
    }
}
