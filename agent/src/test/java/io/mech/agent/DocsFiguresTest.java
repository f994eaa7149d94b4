package io.mech.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The bench's figures as the README and docs quote them: every run a page names is a file under
 * bench/results, and the tables of what each phase of a host's life costs (the README's and
 * docs/bench.md's) hold the medians of the run they name, rounded as shown.
 */
class DocsFiguresTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path RESULTS = ROOT.resolve("bench/results");
    private static final Pattern RUN = Pattern.compile("\\brun (\\d{4}-\\d\\d-\\d\\d-\\d{4})\\b");

    /** The bench's configuration of each column a phase table may have, by its heading. */
    private static final Map<String, String> CONFIGS = Map.of(
        "jHiccup", "jHiccup",
        "hiccup only", "hiccup only",
        "lean", "hiccup + causes (lean, JFR on demand)",
        "lean: hiccup + causes", "hiccup + causes (lean, JFR on demand)",
        "hiccup + causes, JFR from 1 s", "hiccup + causes, JFR from 1 s",
        "mech defaults", "mech defaults",
        "JFR default.jfc, no agent", "JFR default.jfc, no agent");

    /** Each row of a phase table, by the bench figures its cell parts quote, in order. */
    private static final Map<String, List<String>> PHASES = Map.of(
        "start-up: hello world's wall / CPU time added", List.of("startup: time added", "startup: CPU time added"),
        "start-up: hello world's wall time added", List.of("startup: time added"),
        "start-up: hello world's CPU added", List.of("startup: CPU time added"),
        "first 10 s, idle host: CPU added / peak RSS added", List.of("idle 10 s: CPU time added", "memory: peak RSS added"),
        "first 10 s, idle host: CPU added", List.of("idle 10 s: CPU time added"),
        "first 10 s, idle host: peak RSS added", List.of("memory: peak RSS added"),
        "first 10 s, CPU-bound kernel: throughput lost", List.of("throughput lost over the first 10 s: CPU-bound (false-sharing padded)"),
        "steady state, CPU-bound kernel: throughput lost", List.of("throughput lost: CPU-bound (false-sharing padded)"));

    private static final Pattern PHASE_RUN = Pattern.compile("([a-z0-9-]+) from run (\\d{4}-\\d\\d-\\d\\d-\\d{4})");
    private static final Pattern FIGURE = Pattern.compile("\\+?(-?[0-9][0-9,]*(?:\\.[0-9]+)?)\\s*(ms|s|MiB|%)?");

    @Test
    void everyRunAPageNamesIsInTheResults() throws IOException {
        final List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        final TreeSet<String> missing = new TreeSet<>();
        int named = 0;
        for (final Path page : pages) {
            final Matcher run = RUN.matcher(Files.readString(page).replace('\n', ' '));
            while (run.find()) {
                named++;
                if (!Files.isRegularFile(RESULTS.resolve(run.group(1) + ".md"))) {
                    missing.add(ROOT.relativize(page) + ": run " + run.group(1));
                }
            }
        }
        assertTrue(named > 0, "no page names a bench run");
        assertEquals(new TreeSet<String>(), missing, "runs named with no bench/results/<run>.md");
    }

    @Test
    void readmePhaseTableHoldsItsRunsMedians() throws IOException {
        assertTrue(checkPhaseTable("README.md", "| phase | jHiccup | hiccup only | lean | mech defaults |") >= 10);
    }

    @Test
    void benchPagesCostTableHoldsItsRunsMedians() throws IOException {
        assertTrue(checkPhaseTable("docs/bench.md", "| phase | jHiccup | hiccup only | lean: hiccup + causes |") >= 20);
    }

    /**
     * Holds a page's table of costs by phase to the medians of the run the paragraph before it
     * names; a phase measured again after a fix is named apart ("start-up from run id").
     *
     * @return the figures checked
     */
    private static int checkPhaseTable(final String page, final String headerStart) throws IOException {
        final String text = Files.readString(ROOT.resolve(page));
        final int table = text.indexOf(headerStart);
        assertTrue(table > 0, page + " has no table starting " + headerStart);
        final String before = text.substring(text.lastIndexOf("\n\n", table - 3), table).replace('\n', ' ');
        final Matcher run = RUN.matcher(before);
        assertTrue(run.find(), page + ": the phase table names no run before it");
        final String whole = run.group(1);
        final Map<String, String> phaseRuns = new HashMap<>();
        final Matcher phaseRun = PHASE_RUN.matcher(before);
        while (phaseRun.find()) {
            phaseRuns.put(phaseRun.group(1).trim(), phaseRun.group(2));
        }
        final List<String> lines = text.substring(table).lines().takeWhile(l -> l.startsWith("|")).toList();
        final String[] header = cells(lines.get(0));
        final List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (final String line : lines.subList(2, lines.size())) {
            final String[] cells = cells(line);
            final List<String> figures = PHASES.get(cells[0]);
            assertNotNull(figures, page + ": phase row unknown to this test: " + cells[0]);
            final String named = phaseRuns.getOrDefault(cells[0].split("[:,]")[0], whole);
            final Map<String, String[]> medians = medians(RESULTS.resolve(named + ".md"));
            for (int column = 1; column < cells.length; column++) {
                if (cells[column].isEmpty()) {
                    continue;
                }
                final String config = CONFIGS.get(header[column]);
                assertNotNull(config, page + ": column unknown to this test: " + header[column]);
                final String[] parts = cells[column].split(" / ");
                assertEquals(figures.size(), parts.length, page + ", " + cells[0] + ": " + cells[column]);
                final String cellUnit = unitOf(parts[parts.length - 1]);
                for (int i = 0; i < parts.length; i++) {
                    final String key = figures.get(i) + "|" + config;
                    final String[] median = medians.get(key);
                    if (median == null) {
                        wrong.add(key + ": not in run " + named);
                        continue;
                    }
                    final String quoted = parts[i].trim();
                    final String unit = unitOf(quoted) != null ? unitOf(quoted) : cellUnit;
                    final BigDecimal shown = new BigDecimal(number(quoted));
                    final BigDecimal measured = inUnit(new BigDecimal(median[0]), median[1], unit)
                        .setScale(Math.max(0, shown.scale()), RoundingMode.HALF_UP);
                    if (measured.compareTo(shown) != 0) {
                        wrong.add(key + ": " + page + " " + quoted + ", run " + named + " " + median[0] + " " + median[1]);
                    }
                    checked++;
                }
            }
        }
        assertEquals(List.of(), wrong, page + "'s phase table against the runs it names");
        return checked;
    }

    private static String[] cells(final String line) {
        final String[] cells = line.substring(1, line.length() - 1).split("\\|", -1);
        for (int i = 0; i < cells.length; i++) {
            cells[i] = cells[i].trim();
        }
        return cells;
    }

    /** Each row's median and unit, by figure and configuration. */
    private static Map<String, String[]> medians(final Path run) throws IOException {
        final Map<String, String[]> medians = new HashMap<>();
        for (final String line : Files.readAllLines(run)) {
            final String[] cells = line.split("\\|", -1);
            if (cells.length >= 8 && !cells[1].isBlank() && !cells[3].isBlank() && cells[3].trim().matches("-?[0-9.]+")) {
                medians.putIfAbsent(cells[1].trim() + "|" + cells[2].trim(), new String[] {cells[3].trim(), cells[6].trim()});
            }
        }
        return medians;
    }

    private static String unitOf(final String quoted) {
        final Matcher figure = FIGURE.matcher(quoted.trim());
        return figure.matches() ? figure.group(2) : null;
    }

    private static String number(final String quoted) {
        final Matcher figure = FIGURE.matcher(quoted.trim());
        assertTrue(figure.matches(), "not a figure: " + quoted);
        return figure.group(1).replace(",", "");
    }

    private static BigDecimal inUnit(final BigDecimal value, final String from, final String to) {
        if (from.equals(to) || to == null) {
            return value;
        }
        if (from.equals("ms") && to.equals("s")) {
            return value.movePointLeft(3);
        }
        throw new AssertionError("no conversion from " + from + " to " + to);
    }
}
