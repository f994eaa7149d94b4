package io.mech.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Where a run's tables go: the whole run to {@code bench/results/<date>.md}, each part's table to
 * {@code bench/results/parts/<part>.md}, and {@code bench/results/latest.md} rebuilt from the
 * newest table of every part, so that measuring one part again (--only) keeps the others' figures.
 */
final class Results {

    private final Path dir;

    Results(final Path repo) {
        this.dir = repo.resolve("bench/results");
    }

    /**
     * Writes a run's tables.
     *
     * @param when   the run's date, yyyy-MM-dd-HHmm
     * @param header what every table says about the machine and the rounds
     * @param tables each measured part's table, in the order measured
     * @param order  every part in the order latest.md lists them
     * @return the whole run as one document
     */
    String write(final String when, final String header, final Map<String, String> tables, final List<String> order)
        throws IOException {
        final Path parts = Files.createDirectories(dir.resolve("parts"));
        final StringBuilder run = new StringBuilder("# mech bench, " + when + "\n\n" + header + "\n");
        for (final Map.Entry<String, String> table : tables.entrySet()) {
            final String section = "## " + table.getKey() + ", measured " + when + "\n\n" + header + "\n\n" + table.getValue();
            Files.writeString(parts.resolve(table.getKey() + ".md"), section, StandardCharsets.UTF_8);
            run.append("\n## ").append(table.getKey()).append("\n\n").append(table.getValue());
        }
        Files.writeString(dir.resolve(when + ".md"), run, StandardCharsets.UTF_8);
        final StringBuilder latest = new StringBuilder("# mech bench: the newest figures of each part\n\n"
            + "Written by bench/run; each part's section names the run it comes from.\n");
        for (final String part : order) {
            final Path table = parts.resolve(part + ".md");
            if (Files.isRegularFile(table)) {
                latest.append('\n').append(Files.readString(table, StandardCharsets.UTF_8));
            }
        }
        Files.writeString(dir.resolve("latest.md"), latest, StandardCharsets.UTF_8);
        return run.toString();
    }
}
