package io.mech.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README and the pages under docs/ against what they describe: the option table is the one
 * mech prints, the README stays short and keeps the two commands CI runs, and every relative link
 * leads to a file (and, with a {@code #fragment}, to a heading of it).
 */
class DocsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path README = ROOT.resolve("README.md");
    private static final Path DOCS = ROOT.resolve("docs");

    /** The README is what a newcomer reads first: every detail goes to a page under docs/. */
    private static final long README_MAX_BYTES = 8_000;

    private static final String TABLE_HEADER = "| key | default | environment | meaning |";
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?s:.+?)\\1");

    @Test
    void optionsPageHoldsTheCurrentOptionTable() throws IOException {
        final List<String> lines = Files.readAllLines(DOCS.resolve("options.md"));
        final int header = lines.indexOf(TABLE_HEADER);
        assertTrue(header >= 0, "docs/options.md has no option table (a line '" + TABLE_HEADER + "')");
        final StringBuilder table = new StringBuilder();
        for (int i = header; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            table.append(lines.get(i)).append('\n');
        }
        assertEquals(Main.optionTable().replace("\r\n", "\n"), table.toString(),
            "docs/options.md's option table is out of date: paste the output of 'java -jar agent/target/mech.jar options'");
        assertEquals(header, lines.lastIndexOf(TABLE_HEADER), "docs/options.md has a second option table");
    }

    @Test
    void readmeIsShort() throws IOException {
        final long bytes = Files.size(README);
        assertTrue(bytes < README_MAX_BYTES, "README.md is " + bytes + " bytes, over " + README_MAX_BYTES
            + ": move the detail to its page under docs/");
    }

    /** .ci/run runs the README's test command, so the two must name the same one. */
    @Test
    void readmeKeepsTheTwoCommands() throws IOException {
        final List<String> readme = Files.readAllLines(README);
        final int section = readme.indexOf("## Two commands");
        assertTrue(section >= 0, "README.md has no '## Two commands' section");
        int fence = section + 1;
        while (fence < readme.size() && !readme.get(fence).startsWith("```")) {
            assertFalse(readme.get(fence).startsWith("## "), "the '## Two commands' section has no code block");
            fence++;
        }
        final List<String> commands = new ArrayList<>();
        for (int i = fence + 1; i < readme.size() && !readme.get(i).startsWith("```"); i++) {
            final String line = readme.get(i);
            final int comment = line.indexOf(" #");
            commands.add((comment < 0 ? line : line.substring(0, comment)).trim());
        }
        assertEquals(List.of("./demo", "mvn -B verify"), commands, "README.md's two commands");
        final List<String> ci = new ArrayList<>();
        for (final String line : Files.readAllLines(ROOT.resolve(".ci/run"))) {
            if (!line.isBlank() && !line.startsWith("#")) {
                ci.add(line.trim());
            }
        }
        assertEquals("mvn -B verify", ci.get(ci.size() - 1), ".ci/run must end with the README's test command");
    }

    @Test
    void relativeLinksResolve() throws IOException {
        final List<Path> pages = new ArrayList<>();
        pages.add(README);
        try (Stream<Path> docs = Files.list(DOCS)) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        final Map<Path, Set<String>> anchors = new HashMap<>();
        final List<String> broken = new ArrayList<>();
        for (final Path page : pages) {
            for (final String target : links(page)) {
                if (target.matches("^[a-zA-Z][a-zA-Z+.-]*:.*")) {
                    continue; // http:, https:, mailto: ...
                }
                final int hash = target.indexOf('#');
                final String file = hash < 0 ? target : target.substring(0, hash);
                final String fragment = hash < 0 ? null : target.substring(hash + 1);
                final Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                final String where = ROOT.relativize(page) + ": " + target;
                if (!resolved.startsWith(ROOT)) {
                    broken.add(where + " (outside the repository)");
                } else if (!Files.exists(resolved)) {
                    broken.add(where + " (no such file)");
                } else if (fragment != null && resolved.toString().endsWith(".md")
                    && !anchors.computeIfAbsent(resolved, DocsTest::headingAnchors).contains(fragment)) {
                    broken.add(where + " (no such heading)");
                }
            }
        }
        assertEquals(List.of(), broken, "relative links that lead nowhere");
    }

    /** The targets of the Markdown links of a page, outside code blocks and code spans. */
    private static List<String> links(final Path page) throws IOException {
        final List<String> targets = new ArrayList<>();
        boolean fenced = false;
        for (final String line : Files.readAllLines(page)) {
            if (line.trim().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            final Matcher link = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
            while (link.find()) {
                targets.add(link.group(1));
            }
        }
        return targets;
    }

    /** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as dashes. */
    private static Set<String> headingAnchors(final Path page) {
        final Set<String> anchors = new HashSet<>();
        final Map<String, Integer> seen = new HashMap<>();
        try {
            boolean fenced = false;
            for (final String line : Files.readAllLines(page)) {
                if (line.trim().startsWith("```")) {
                    fenced = !fenced;
                }
                if (fenced || !line.matches("^#{1,6} .*")) {
                    continue;
                }
                final String slug = line.replaceFirst("^#+ ", "").trim().toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
                final int n = seen.merge(slug, 1, Integer::sum);
                anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
            }
        } catch (final IOException e) {
            throw new IllegalStateException(e);
        }
        return anchors;
    }
}
