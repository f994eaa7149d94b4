package io.mech.replay;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One in-process run of the replay command: exit code, standard output and standard error.
 *
 * @param code the exit code
 * @param out  what it printed on standard output
 * @param err  what it printed on standard error
 */
record Outcome(int code, String out, String err) {

    static Outcome replay(final String... args) {
        return replayWithStdin(new byte[0], args);
    }

    static Outcome replayWithStdin(final byte[] stdin, final String... args) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = ReplayCommand.run(args, new ByteArrayInputStream(stdin), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The text distribution rows: from the column header through the {@code #[Buckets} line. */
    static List<String> distribution(final String text) {
        final List<String> rows = new ArrayList<>();
        for (final String line : text.split("\n", -1)) {
            if (rows.isEmpty() && !line.trim().startsWith("Value")) {
                continue;
            }
            rows.add(line);
            if (line.startsWith("#[Buckets")) {
                break;
            }
        }
        return rows;
    }

    /** The CSV distribution rows: from the column header up to the first blank line. */
    static List<String> csvDistribution(final String text) {
        final List<String> rows = new ArrayList<>();
        for (final String line : text.split("\n", -1)) {
            if (rows.isEmpty() && !line.startsWith("\"Value\"")) {
                continue;
            }
            if (line.isEmpty()) {
                break;
            }
            rows.add(line);
        }
        return rows;
    }
}
