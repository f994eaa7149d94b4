package io.mech.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * replay's JSON and CSV of a tagged log, held against golden files as the agent's report is: a
 * change of a key, a column or a figure shows in review as a change of the golden file. The log's
 * directory is taken out of the output, which names the log as it was given.
 */
class ReplayGoldenTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "tagged.json, --format json --intervals --moving-window 10s",
        "tagged.csv, --format csv",
        "tagged-summary.csv, --csv-table summary",
        "tagged-causes.csv, --csv-table causes",
        "tagged-intervals.csv, --csv-table intervals",
    })
    void outputMatchesItsGoldenFile(final String golden, final String options) throws Exception {
        final Path log = Path.of(ReplayGoldenTest.class.getResource(TestLogs.TAGGED).toURI());
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final String[] args = (options + " " + log).split(" ");
        final int exit = ReplayCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        final String got = out.toString(StandardCharsets.UTF_8).replace(log.getParent() + "/", "");
        assertEquals(golden(golden), got, "replay " + options + " differs from golden/" + golden);
    }

    private static String golden(final String name) throws IOException {
        try (InputStream in = ReplayGoldenTest.class.getResourceAsStream("/golden/" + name)) {
            if (in == null) {
                throw new IOException("no golden file " + name + " on the test class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
