package io.mech.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.agent.options.Option;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MainTest {

    @Test
    void optionTableListsEveryKey() {
        final String table = Main.optionTable();
        for (final Option<?> option : Parts.options()) {
            assertTrue(table.contains("| `" + option.key + "` |"), option.key);
        }
    }

    @Test
    void unknownCommandAndBadPidFail() {
        assertEquals(2, Main.run(new String[] {"frobnicate"}));
        assertEquals(2, Main.run(new String[] {"attach", "notapid"}));
        assertEquals(1, Main.run(new String[] {"attach", Long.toString(Long.MAX_VALUE)}));
    }

    @Test
    void everyCommandAnswersHelpOnStdoutWithExitZero() {
        for (final List<String> ask : List.of(List.of("--help"), List.of("attach", "--help"), List.of("attach", "-h"),
            List.of("profile", "--help"), List.of("replay", "--help"), List.of("options", "--help"))) {
            final Run run = Run.of(ask.toArray(String[]::new));
            assertEquals(0, run.status, ask + ": " + run.err);
            assertTrue(run.out.startsWith("usage: java -jar mech.jar"), ask + ": " + run.out);
            assertEquals("", run.err, ask.toString());
        }
    }

    @Test
    void versionNamesTheBuildOrSaysItHasNone() {
        final Run run = Run.of("--version");
        assertEquals(0, run.status);
        // the unit tests run from classes, which carry no manifest
        assertEquals("mech unknown (not run from mech.jar)\n", run.out);
    }

    @Test
    void aUsageErrorIsOneLineNamingTheArgumentAndPointingAtHelp() {
        final Map<List<String>, String> named = Map.of(
            List.of("frobnicate"), "unknown command 'frobnicate'",
            List.of("attach"), "a pid is needed",
            List.of("attach", "notapid"), "'notapid' is not a pid",
            List.of("attach", "1", "a=b", "extra"), "got 3 arguments",
            List.of("profile"), "a pid is needed",
            List.of("profile", "notapid"), "'notapid' is not a pid",
            List.of("profile", "1", "--colour", "red"), "unknown option --colour",
            List.of("profile", "1", "--duration", "10"), "a duration needs a unit",
            List.of("replay", "--stall", "10", "x.hlog"), "a duration needs a unit",
            List.of("options", "all"), "takes no arguments, got 'all'");
        named.forEach((wrong, problem) -> {
            final Run run = Run.of(wrong.toArray(String[]::new));
            assertEquals(2, run.status, wrong.toString());
            assertEquals("", run.out, wrong.toString());
            assertEquals(1, run.err.lines().count(), wrong + ": " + run.err);
            assertTrue(run.err.contains(problem) && run.err.contains("--help"), wrong + ": " + run.err);
        });
    }

    /** One run of Main with its standard streams captured. */
    private record Run(int status, String out, String err) {

        static synchronized Run of(final String... args) {
            final PrintStream out = System.out;
            final PrintStream err = System.err;
            final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
            final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
            try {
                System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
                System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
                final int status = Main.run(args);
                return new Run(status, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
            } finally {
                System.setOut(out);
                System.setErr(err);
            }
        }
    }
}
