package io.mech.bench;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code bench/run [--rounds N] [--seconds S] [--scrape-seconds S] [--loads KIND,...] [--jhiccup JAR]
 * [--only startup,memory,overhead,floor,jfr,locks,falsesharing,queues,profiler,scrape,replay,replay-
 * long]}: measures, prints
 * a table per part and writes them as {@link Results} says. {@code --jhiccup} names jHiccup's agent
 * jar, by default {@value JHiccup#USUAL_PATH} from the repository's root; without one, jHiccup's
 * rows are left out.
 */
public final class Main {

    /** Every part, in the order a full run measures them and latest.md lists them. */
    private static final List<String> ALL = List.of("startup", "memory", "overhead", "floor", "jfr", "locks", "falsesharing", "queues",
        "profiler", "scrape", "replay", "replay-long");

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
        Set<String> loads = Set.of();
        Set<String> only = new LinkedHashSet<>(ALL);
        Path repo = Path.of(".").toAbsolutePath().normalize();
        Path jHiccupJar = null;
        for (int i = 0; i < args.length; i++) {
            final String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(require(args[i], value));
                case "--seconds" -> seconds = Double.parseDouble(require(args[i], value));
                case "--scrape-seconds" -> scrapeSeconds = Integer.parseInt(require(args[i], value));
                case "--loads" -> loads = new LinkedHashSet<>(Arrays.asList(require(args[i], value).split(",")));
                case "--only" -> only = new LinkedHashSet<>(Arrays.asList(require(args[i], value).split(",")));
                case "--repo" -> repo = Path.of(require(args[i], value)).toAbsolutePath().normalize();
                case "--jhiccup" -> jHiccupJar = Path.of(require(args[i], value)).toAbsolutePath().normalize();
                default -> usage("unknown option " + args[i]);
            }
            i++;
        }
        if (rounds < 5) {
            usage("--rounds must be at least 5, got " + rounds);
        }
        if (!ALL.containsAll(only)) {
            usage("--only takes " + ALL + ", got " + only);
        }
        final Path mechJar = existing(repo.resolve("agent/target/mech.jar"));
        final Path examplesJar = existing(repo.resolve("examples/target/mech-examples.jar"));
        final Path benchJar = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (jHiccupJar == null) {
            jHiccupJar = repo.resolve(JHiccup.USUAL_PATH).normalize();
        }
        final Optional<JHiccup> jHiccup = JHiccup.at(jHiccupJar);
        if (jHiccup.isEmpty()) {
            System.err.println("bench: no jHiccup at " + jHiccupJar + " (--jhiccup <path> names it): its rows are left out");
        }
        final Path work = Files.createTempDirectory("mech-bench");
        if (!OverheadBench.kinds().containsAll(loads)) {
            usage("--loads takes " + OverheadBench.kinds() + ", got " + loads);
        }
        final Setup setup = new Setup(mechJar, examplesJar, benchJar, jHiccup, work, rounds, seconds, scrapeSeconds, loads);

        final Map<String, String> tables = new LinkedHashMap<>();
        for (final String part : only) {
            System.err.println("bench: measuring " + part + " ...");
            final List<Row> rows = switch (part) {
                case "startup" -> StartupBench.run(setup);
                case "floor" -> FloorBench.run(setup);
                case "jfr" -> JfrEventsBench.run(setup);
                case "memory" -> MemoryBench.run(setup);
                case "scrape" -> ScrapeBench.run(setup);
                case "replay" -> ReplayBench.run(setup);
                case "replay-long" -> LongLogBench.run(setup);
                case "locks" -> LocksBench.run(setup);
                case "falsesharing" -> FalseSharingBench.run(setup);
                case "queues" -> QueuesBench.run(setup);
                case "profiler" -> ProfilerBench.run(setup);
                default -> OverheadBench.run(setup);
            };
            tables.put(part, Table.render(rows));
        }
        final String when = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmm"));
        final String header = Machine.describe() + "; jHiccup: "
            + jHiccup.map(j -> j.version() + " (" + j.jar().getFileName() + ")").orElse("none, its rows left out")
            + "\n\n" + "Each figure: median and range over " + rounds
            + " alternating rounds (A B A B ...), differences and ratios taken within each round.";
        System.out.print(new Results(repo).write(when, header, tables, ALL));
        System.err.println("bench: wrote bench/results/" + when + ".md, bench/results/parts/ and bench/results/latest.md");
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
        System.err.println("usage: bench/run [--rounds N>=5] [--seconds S] [--scrape-seconds S] [--loads KIND,...] [--jhiccup JAR] "
            + "[--only " + String.join(",", ALL) + "]");
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
