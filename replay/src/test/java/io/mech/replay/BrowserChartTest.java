package io.mech.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML page renders its charts in headless Chromium with no script error; the screenshots are
 * kept as {@code target/replay-chart.png} and {@code target/replay-fleet-chart.png} for a person to
 * look at.
 */
class BrowserChartTest {

    @TempDir
    Path dir;

    @Test
    void bothChartsRenderWithoutScriptErrors() throws Exception {
        final Path chromium = DebianPackage.require(Path.of("/usr/bin/chromium"), "chromium");
        final Path a = TestLogs.copy(TestLogs.MECH, dir);
        final Path b = TestLogs.copy(TestLogs.WRITER, dir);
        final Path html = dir.resolve("replay.html");
        final Path svg = dir.resolve("replay.svg");
        final Outcome outcome = Outcome.replay("--html", html.toString(), "--svg", svg.toString(), a.toString(), b.toString());
        assertEquals(0, outcome.code(), outcome.err());
        final String page = Files.readString(html, StandardCharsets.UTF_8);
        assertFalse(page.contains("http://") && page.replace("http://www.w3.org/2000/svg", "").contains("http://"),
            "the page refers to the network");
        assertFalse(page.contains("<script src"), "the page loads a script");
        assertTrue(Files.readString(svg, StandardCharsets.UTF_8).contains("id=\"timeline\""));

        final Path target = Path.of("target").toAbsolutePath();
        Files.createDirectories(target);
        final Path screenshot = target.resolve("replay-chart.png");
        Files.deleteIfExists(screenshot);
        run(chromium, "--screenshot=" + screenshot, "--window-size=1200,900", html);
        assertTrue(Files.size(screenshot) > 10_000, "screenshot too small to hold charts");

        final String dom = run(chromium, "--dump-dom", null, html);
        assertTrue(dom.contains("data-charts-rendered=\"2\""), "charts not rendered:\n" + head(dom));
        assertFalse(dom.contains("<pre id=\"script-errors\">"),
            "script error:\n" + dom.substring(Math.max(0, dom.indexOf("<pre id=\"script-errors\">"))));
        // Three series in the spectrum (two logs and the merged view), six in the timeline.
        assertTrue(dom.contains("id=\"spectrum\"") && dom.matches("(?s).*id=\"spectrum\"[^>]*data-drawn=\"3\".*"), head(dom));
        assertTrue(dom.matches("(?s).*id=\"timeline\"[^>]*data-drawn=\"6\".*"), head(dom));
    }

    @Test
    void fleetPageDrawsTheBandTheCausesAndTheControl() throws Exception {
        final Path chromium = DebianPackage.require(Path.of("/usr/bin/chromium"), "chromium");
        final Path logs = Files.createDirectories(dir.resolve("fleet"));
        final int hosts = Replay.OVERLAID_LOGS + 2;
        for (int i = 0; i < hosts; i++) {
            final Path log = logs.resolve("host-" + i + ".hlog");
            new GeneratedLog(log, 40 + i, 1_735_689_600_000L + i * 300L, 120, 3, 8, true);
            new GeneratedLog(Path.of(log + ".c"), 90 + i, 1_735_689_600_000L + i * 300L, 120, 3, 30, false);
        }
        final Path html = dir.resolve("fleet.html");
        final Outcome outcome = Outcome.replay("--per-file", "--html", html.toString(), logs.toString());
        assertEquals(0, outcome.code(), outcome.err());
        assertTrue(outcome.out().contains("#[Control JVMs (" + hosts + " logs)"), outcome.out());

        final Path target = Path.of("target").toAbsolutePath();
        Files.createDirectories(target);
        final Path screenshot = target.resolve("replay-fleet-chart.png");
        Files.deleteIfExists(screenshot);
        run(chromium, "--screenshot=" + screenshot, "--window-size=1200,2400", html);
        assertTrue(Files.size(screenshot) > 10_000, "screenshot too small to hold charts");

        final String dom = run(chromium, "--dump-dom", null, html);
        assertTrue(dom.contains("data-charts-rendered=\"3\""), "charts not rendered:\n" + head(dom));
        assertFalse(dom.contains("<pre id=\"script-errors\">"), "script error");
        // The spectrum: the band of hosts and the merged line, not a line per host.
        assertTrue(dom.matches("(?s).*id=\"spectrum\"[^>]*data-drawn=\"2\".*"), head(dom));
        // The causes: a stack per cause that had a stall (all four, at one stall in 8 intervals), and the control line.
        assertTrue(dom.matches("(?s).*id=\"causes\"[^>]*data-drawn=\"5\".*"), head(dom));
        assertTrue(dom.contains("class=\"series control\""), "no control line");
    }

    private String run(final Path chromium, final String action, final String size, final Path html) throws Exception {
        final List<String> command = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--user-data-dir=" + Files.createTempDirectory(dir, "profile"), action));
        if (size != null) {
            command.add(size);
        }
        command.add("--virtual-time-budget=3000");
        command.add(html.toUri().toString());
        final Path out = Files.createTempFile(dir, "chromium", ".out");
        final Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("chromium timed out: " + command);
        }
        assertEquals(0, process.exitValue(), String.join(" ", command));
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    private static String head(final String text) {
        return text.substring(0, Math.min(text.length(), 2000));
    }
}
