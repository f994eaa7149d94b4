package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.mech.examples.Finding;
import io.mech.examples.KernelDescriptor;
import io.mech.examples.Kernels;
import io.mech.examples.Site;
import io.mech.examples.VariantDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The false-sharing probe in the real mech.jar against the declared ground truth of every kernel
 * with a sharing variant, both ways, the kernels spread over the JDKs: each declared false-sharing or
 * true-sharing site is flagged with its class and fields, and every other variant (padded and
 * separated twins, single-threaded runs) has no verdict of that kind at all.
 */
class FalseSharingProbeTest {

    /**
     * How the probe says its threads took turns on the cores: a line moves between cores only while
     * its threads run at once, so a declared site unflagged in such a window cannot be judged here.
     */
    private static final String TOOK_TURNS = "sharing between threads that took turns on one core";
    /** How the probe's fix for two threads talking through the flagged fields begins. */
    private static final String EXCHANGE_FIX = "the two threads talk through these fields";
    /**
     * False-sharing variants whose two fields are how their threads talk: each thread reads the
     * other's field as often as it writes its own, so padding alone does not help (the bench's
     * falsesharing part measures the padded twin slower on spsc and ping-pong). Every other
     * false-sharing variant must get the padding fix.
     */
    private static final Set<String> EXCHANGES = Set.of("spsc:volatile-modulo", "spsc:lazy-set", "spsc:power-of-two",
        "lazy-set:ping-pong-shared");

    @TempDir
    Path dir;

    /**
     * Every variant of every kernel that declares a sharing finding in any of its variants, the
     * kernels taking the JDKs in turn (17, 21, 25, 17, ...): a kernel's flagged variants and their
     * twins run on one JDK, every JDK runs a third of the kernels, and the sweep fits CI's time.
     */
    static Stream<Arguments> variants() {
        final List<Path> jdks = Jdks.all().toList();
        final List<Arguments> all = new ArrayList<>();
        int turn = 0;
        for (final KernelDescriptor kernel : Kernels.all()) {
            final boolean sharing = kernel.variants().stream().anyMatch(v -> v.findings().contains(Finding.FALSE_SHARING)
                || v.findings().contains(Finding.TRUE_SHARING));
            if (sharing) {
                final Path jdk = jdks.get(turn++ % jdks.size());
                for (final VariantDescriptor variant : kernel.variants()) {
                    all.add(Arguments.of(jdk, kernel.name(), variant.name()));
                }
            }
        }
        return all.stream();
    }

    /** One verdict row of the JSON report. */
    private record Row(String verdict, String className, Set<String> fields, String fix) {
    }

    @ParameterizedTest(name = "{1}:{2} on {0}")
    @MethodSource("variants")
    void verdictsMatchTheDeclaredGroundTruth(final Path jdk, final String kernel, final String variant) throws Exception {
        final VariantDescriptor truth = Kernels.named(kernel).orElseThrow().variant(variant).orElseThrow();
        final Path json = dir.resolve("report.json");
        // a window of two counting bursts (one every 2 s), within the kernel's run
        final List<String> command = new ArrayList<>(Forked.javaWithMech(jdk, "probes.falsesharing=on,probes.falsesharing.delay=500ms,"
            + "probes.falsesharing.window=2600ms,hiccup=off,prometheus=off,report=off,report.json=" + json));
        command.addAll(truth.jvmArgs());
        command.addAll(List.of("-jar", Paths.examplesJar().toString(), kernel, variant, "--seconds", "4"));
        final Forked.Result result = Forked.run(dir, command, 90);
        assertEquals(0, result.exit(), result.err());
        assertEquals(List.of(), result.mechLines(), "the probe runs without a word");

        final String report = Files.readString(json);
        assertTrue(report.contains("s window, "), "the window ran to its end: " + report);
        final List<Row> rows = rows(report);
        check(truth, Finding.FALSE_SHARING, Set.of("false sharing", "cross-object"), rows, report);
        check(truth, Finding.TRUE_SHARING, Set.of("true sharing"), rows, report);
        final boolean exchange = EXCHANGES.contains(kernel + ":" + variant);
        for (final Row row : rows) {
            if (row.verdict().equals("false sharing")) {
                assertEquals(exchange, row.fix().startsWith(EXCHANGE_FIX),
                    kernel + ":" + variant + (exchange ? " is" : " is not") + " an exchange: " + row);
            }
        }
    }

    private static void check(final VariantDescriptor truth, final Finding finding, final Set<String> verdicts,
                              final List<Row> rows, final String report) {
        final List<Row> flagged = rows.stream().filter(r -> verdicts.contains(r.verdict())).toList();
        if (!truth.findings().contains(finding)) {
            assertEquals(List.of(), flagged, truth + " must have no " + finding + " verdict: " + report);
            return;
        }
        for (final Site site : truth.sites(finding)) {
            final Set<String> fields = new TreeSet<>(site.fields());
            final boolean found = finding == Finding.FALSE_SHARING
                ? flagged.stream().anyMatch(r -> r.className().equals(site.className()) && r.fields().equals(fields))
                : fields.stream().allMatch(f -> flagged.stream().anyMatch(r -> r.className().equals(site.className())
                    && r.fields().equals(Set.of(f))));
            assumeFalse(!found && report.contains(TOOK_TURNS), "the machine was too busy for " + truth + "'s threads to run at "
                + "once, so " + site + " could not be seen: " + report);
            assertTrue(found, truth + " must be flagged on " + site + ": " + report);
        }
    }

    private static List<Row> rows(final String report) {
        return ReportRows.of(report, "falsesharing").stream().map(row -> new Row(row.get("verdict"), row.get("class"),
            new TreeSet<>(List.of(row.get("fields").split(","))), row.get("fix"))).toList();
    }
}
