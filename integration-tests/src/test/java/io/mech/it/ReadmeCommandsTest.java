package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.ReadmeApp;
import io.mech.it.hosts.SleepingHost;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first ten {@code java} commands of the README and of the pages a newcomer reads next
 * (hiccups, replay, fleet), taken from their {@code sh} blocks and run as written, in that
 * order, by {@code sh} in a directory laid out as they assume: {@code agent/target/mech.jar}, an
 * {@code app.jar} (a host that works for two seconds), {@code logs/}. Only what a reader must
 * fill in is filled in, each below with its reason. {@code ./demo} and {@code mvn -B verify},
 * the two commands before them, are CI's own run and the demo's kernels (PrometheusScrapeTest).
 * Each command must exit 0 and give its result: a report and a log, a flame graph, an .hgrm,
 * a replay's table or page.
 */
@QuietHosts
class ReadmeCommandsTest {

    private static final List<String> PAGES = List.of("README.md", "docs/hiccups.md", "docs/replay.md", "docs/fleet.md");
    private static final int COMMANDS = 10;

    @TempDir
    Path dir;

    @Test
    void theFirstTenCommandsRunAsWritten() throws Exception {
        final List<String> commands = firstCommands();
        assertEquals(COMMANDS, commands.size(), "java commands found: " + commands);
        Files.createDirectories(dir.resolve("agent/target"));
        Files.createSymbolicLink(dir.resolve("agent/target/mech.jar"), Paths.mechJar());
        Files.createDirectories(dir.resolve("logs"));
        appJar(dir.resolve("app.jar"));
        final Path javaHome = Path.of(System.getProperty("java.home"));
        final Forked target = Forked.start(dir, List.of(Jdks.java(javaHome), "-cp", Paths.testClasses(),
            SleepingHost.class.getName(), "60000"));
        try {
            final Map<String, String> fill = new LinkedHashMap<>();
            fill.put("<pid>", Long.toString(target.pid()));
            fill.put(" [key=value,...]", "");
            // loopback only: the fleet page's example address is a machine's own
            fill.put("prometheus.host=10.0.0.12", "prometheus.host=127.0.0.1");
            fill.put("/var/log/app/", dir.resolve("logs") + "/");
            fill.put("HdrHistogram-2.2.2.jar", Paths.codeSource(Histogram.class).toString());
            // the synopsis of replay's arguments, given one: the directory of logs
            fill.put("[options] <log|dir|'glob'>...", "logs/");
            final Map<String, String> path = Map.of("PATH", javaHome.resolve("bin") + ":" + System.getenv("PATH"));
            final List<String> failures = new ArrayList<>();
            for (final String written : commands) {
                String command = written;
                for (final Map.Entry<String, String> f : fill.entrySet()) {
                    command = command.replace(f.getKey(), f.getValue());
                }
                if (command.contains("hiccup.20261121-110745.3335.hlog")) {
                    // the log the README's first command wrote, under the name the page shows as its example
                    command = command.replace("hiccup.20261121-110745.3335.hlog", firstLog().getFileName().toString());
                }
                if (command.contains("logs/*/")) {
                    // the fleet page's layout: a directory per host
                    Files.createDirectories(dir.resolve("logs/host-a"));
                    Files.copy(newest(dir.resolve("logs"), "hiccup."), dir.resolve("logs/host-a/hiccup.a.hlog"));
                }
                final Forked.Result result = Forked.start(dir, List.of("sh", "-c", command), path).await(90);
                final String problem = problem(written, result);
                if (problem != null) {
                    failures.add(written + "\n  run as: " + command + "\n  " + problem + "\n  stdout: " + result.out()
                        + "\n  stderr: " + result.err());
                }
            }
            assertEquals(List.of(), failures, "README and docs commands that failed");
        } finally {
            target.terminate();
        }
        final Forked.Result attached = target.await(30);
        assertTrue(attached.err().contains("mech report: pid " + target.pid()), "the attached JVM reported at its exit: " + attached.err());
    }

    /** What is wrong with a command's result, or null when it gave what the page says it gives. */
    private String problem(final String written, final Forked.Result result) throws IOException {
        if (result.exit() != 0) {
            return "exit " + result.exit();
        }
        if (written.startsWith("java -javaagent:")) {
            return result.err().contains("mech report: pid") && result.out().contains("app done") ? null : "no report, or the app did not finish";
        }
        if (written.contains(" attach ")) {
            return result.out().isBlank() && result.err().isBlank() ? "attach said nothing" : null;
        }
        if (written.contains(" profile ")) {
            final Matcher graph = Pattern.compile("(\\S+\\.html)").matcher(result.out());
            return graph.find() && Files.size(dir.resolve(graph.group(1))) > 10_000 ? null : "no flame graph written and named";
        }
        if (written.contains("HistogramLogProcessor")) {
            return Files.size(dir.resolve("out.hgrm")) > 1_000 ? null : "no out.hgrm";
        }
        if (written.contains("--html fleet.html")) {
            return Files.size(dir.resolve("fleet.html")) > 10_000 && result.out().contains("Value") ? null : "no page or no table";
        }
        return result.out().contains("Value") && result.out().contains("#[Max") ? null : "no percentile table";
    }

    /** The first {@link #COMMANDS} distinct lines starting {@code java } in the pages' {@code sh} blocks, comments cut. */
    private static List<String> firstCommands() throws IOException {
        final LinkedHashSet<String> commands = new LinkedHashSet<>();
        for (final String page : PAGES) {
            boolean shell = false;
            for (final String line : Files.readAllLines(Paths.repoFile(page))) {
                if (line.startsWith("```")) {
                    shell = !shell && line.equals("```sh");
                } else if (shell && line.startsWith("java ") && commands.size() < COMMANDS) {
                    final int comment = line.indexOf("  #");
                    commands.add((comment < 0 ? line : line.substring(0, comment)).trim());
                }
            }
        }
        return new ArrayList<>(commands);
    }

    /** The log the agent writes by default, in the directory it ran in. */
    private Path firstLog() throws IOException {
        return newest(dir, "hiccup.");
    }

    private static Path newest(final Path in, final String prefix) throws IOException {
        try (Stream<Path> files = Files.list(in)) {
            return files.filter(p -> p.getFileName().toString().startsWith(prefix) && p.toString().endsWith(".hlog"))
                .max((a, b) -> a.toFile().lastModified() < b.toFile().lastModified() ? -1 : 1)
                .orElseThrow(() -> new AssertionError("no " + prefix + "*.hlog in " + in));
        }
    }

    /** A jar whose main class is {@link ReadmeApp}, the README's {@code app.jar}. */
    private static void appJar(final Path jar) throws IOException {
        final Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, ReadmeApp.class.getName());
        final String entry = ReadmeApp.class.getName().replace('.', '/') + ".class";
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
            out.putNextEntry(new JarEntry(entry));
            out.write(Files.readAllBytes(Path.of(Paths.testClasses()).resolve(entry)));
            out.closeEntry();
        }
    }
}
