package io.mech.bench;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code bench/run [--rounds N] [--seconds S] [--scrape-seconds S] [--only startup,memory,overhead,locks,falsesharing,queues,scrape,replay]}: measures, prints
 * one table and writes it to {@code bench/results/<date>.md} and {@code bench/results/latest.md}.
 */
public final class Main {

    private static final Set<String> PARTS = Set.of("startup", "memory", "overhead", "scrape", "replay", "locks", "falsesharing", "queues");

    private Main() {
    }

    /**
     * Runs the bench.
     *
     * @param args options, see the class comment
     * @throws Exception when a measured JVM fails; the bench writes no partial table
     */
    public static void main(final String[] args) throws Exception {
        int rounds = 5;
        double seconds = 3;
        int scrapeSeconds = 30;
        Set<String> only = new LinkedHashSet<>(List.of("startup", "memory", "overhead", "locks", "falsesharing", "queues", "scrape", "replay"));
        Path repo = Path.of(".").toAbsolutePath().normalize();
        for (int i = 0; i < args.length; i++) {
            final String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(require(args[i], value));
                case "--seconds" -> seconds = Double.parseDouble(require(args[i], value));
                case "--scrape-seconds" -> scrapeSeconds = Integer.parseInt(require(args[i], value));
                case "--only" -> only = new LinkedHashSet<>(Arrays.asList(require(args[i], value).split(",")));
                case "--repo" -> repo = Path.of(require(args[i], value)).toAbsolutePath().normalize();
                default -> usage("unknown option " + args[i]);
            }
            i++;
        }
        if (rounds < 5) {
            usage("--rounds must be at least 5, got " + rounds);
        }
        if (!PARTS.containsAll(only)) {
            usage("--only takes " + PARTS + ", got " + only);
        }
        final Path mechJar = existing(repo.resolve("agent/target/mech.jar"));
        final Path examplesJar = existing(repo.resolve("examples/target/mech-examples.jar"));
        final Path benchJar = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        final Path work = Files.createTempDirectory("mech-bench");
        final Setup setup = new Setup(mechJar, examplesJar, benchJar, work, rounds, seconds, scrapeSeconds);

        final List<Row> rows = new ArrayList<>();
        for (final String part : only) {
            System.err.println("bench: measuring " + part + " ...");
            switch (part) {
                case "startup" -> rows.addAll(StartupBench.run(setup));
                case "memory" -> rows.addAll(MemoryBench.run(setup));
                case "scrape" -> rows.addAll(ScrapeBench.run(setup));
                case "replay" -> rows.addAll(ReplayBench.run(setup));
                case "locks" -> rows.addAll(LocksBench.run(setup));
                case "falsesharing" -> rows.addAll(FalseSharingBench.run(setup));
                case "queues" -> rows.addAll(QueuesBench.run(setup));
                default -> rows.addAll(OverheadBench.run(setup));
            }
        }
        final String when = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmm"));
        final String document = "# mech bench, " + when + "\n\n" + Machine.describe() + "\n\n"
            + "Each figure: median and range over " + rounds + " alternating rounds (A B A B ...), "
            + "differences and ratios taken within each round.\n\n" + Table.render(rows);
        System.out.print(document);
        final Path results = Files.createDirectories(repo.resolve("bench/results"));
        Files.writeString(results.resolve(when + ".md"), document, StandardCharsets.UTF_8);
        Files.writeString(results.resolve("latest.md"), document, StandardCharsets.UTF_8);
        System.err.println("bench: wrote " + results.resolve(when + ".md") + " and latest.md");
        deleteTree(work.toFile());
    }

    private static String require(final String option, final String value) {
        if (value == null) {
            usage(option + " needs a value");
        }
        return value;
    }

    private static Path existing(final Path jar) {
        if (!Files.isRegularFile(jar)) {
            usage(jar + " is missing: build first (bench/run does)");
        }
        return jar;
    }

    private static void usage(final String problem) {
        System.err.println("bench: " + problem);
        System.err.println("usage: bench/run [--rounds N>=5] [--seconds S] [--scrape-seconds S] [--only startup,memory,overhead,locks,falsesharing,queues,scrape,replay]");
        System.exit(2);
    }

    private static void deleteTree(final File file) {
        final File[] children = file.listFiles();
        if (children != null) {
            for (final File child : children) {
                deleteTree(child);
            }
        }
        file.delete();
    }
}
