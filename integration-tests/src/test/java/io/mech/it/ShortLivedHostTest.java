package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.ExitingHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exit never waits on mech: 100 short-lived hosts, spread over the JDKs, the defaults and every
 * probe on, each ending 0 to 1,000 ms after start-up by {@code System.exit} or by returning from
 * main, while mech is still starting or just started. Every one must end within 2 s of its own
 * end, with its own exit code, and nothing printed on its output after its own last line (a JFR
 * start that mech began met the VM's death once and JFR said so there). Before the shutdown
 * budget, about one in ten hung forever.
 */
class ShortLivedHostTest {

    /** One in ten hung before the shutdown budget: 60 hosts miss such a fault with a chance of 0.2%. */
    private static final int HOSTS = 60;
    /** Two at a time: the machine has two cores, and a host that ends late must not be one starved by the others. */
    private static final int PARALLEL = 2;
    private static final long LATE_MILLIS = 2_000;

    /** The defaults, but any free port, so that hosts running side by side do not contend for 9464. */
    private static final String DEFAULTS = "prometheus.port=0";
    /** Every probe on, the false-sharing window open from the start, and the profiler ready. */
    private static final String EVERY_PROBE = "prometheus.port=0,hiccup.causes=on,probes.falsesharing=on,"
        + "probes.falsesharing.delay=0,probes.falsesharing.include=io.mech.it.hosts,probes.queues=on,profiler=on";

    @TempDir
    Path dir;

    /**
     * @param after what the host's output held after its own last line: nothing of mech's or of what mech started may print there
     * @param err   the host's stderr, where the report goes: the recorder is on in every host, so a report without
     *              hiccups (a host that ended before mech-start reached the recorder) must not call it off
     */
    private record Outcome(String what, int exit, int expectedExit, long lateMillis, String after, String err) {

        boolean ok() {
            return exit == expectedExit && lateMillis >= 0 && lateMillis <= LATE_MILLIS && after.isEmpty()
                && !err.contains("hiccup recorder off");
        }
    }

    @Test
    void everyHostEndsWithinTwoSecondsOfItsOwnEndWithItsOwnExitCode() throws Exception {
        final List<Path> jdks = Jdks.installed();
        final ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
        final List<Future<Outcome>> outcomes = new ArrayList<>();
        try {
            for (int i = 0; i < HOSTS; i++) {
                final Path jdk = jdks.get(i % jdks.size());
                final String options = (i / jdks.size()) % 2 == 0 ? DEFAULTS : EVERY_PROBE;
                // 0 to 1,000 ms spread evenly, a step not dividing the JDK and option cycles
                final long runMillis = (i * 397L) % 1_001;
                final boolean exits = (i / 4) % 2 == 0;
                final int code = exits ? 3 + i % 50 : 0;
                final int index = i;
                outcomes.add(pool.submit(() -> run(index, jdk, options, runMillis, exits, code)));
            }
            final List<Outcome> failed = new ArrayList<>();
            for (final Future<Outcome> outcome : outcomes) {
                if (!outcome.get().ok()) {
                    failed.add(outcome.get());
                }
            }
            assertTrue(failed.isEmpty(),
                failed.size() + " of " + HOSTS + " hosts ended late, with another exit code, or with output after their own: " + failed);
        } finally {
            pool.shutdownNow();
        }
    }

    private Outcome run(final int index, final Path jdk, final String options, final long runMillis, final boolean exits,
                        final int code) throws Exception {
        final Path own = Files.createDirectory(dir.resolve("host" + index));
        final List<String> args = new ArrayList<>(List.of("-cp", Paths.testClasses(), ExitingHost.class.getName(),
            Long.toString(runMillis)));
        args.addAll(exits ? List.of("exit", Integer.toString(code)) : List.of("return"));
        final Forked host = Forked.start(own, Forked.javaWithMech(jdk, options, args.toArray(new String[0])));
        final String what = jdk.getFileName() + " [" + options + "] " + String.join(" ", args.subList(3, args.size()));
        final Forked.Result result;
        try {
            // Generous: a late host is caught by its lateness; one that never ends is killed here.
            result = host.await(20);
        } catch (final AssertionError hung) {
            return new Outcome(what, -1, code, Long.MAX_VALUE, "", hung.getMessage());
        }
        final long ended = System.currentTimeMillis();
        final int at = result.out().indexOf(ExitingHost.ENDING);
        if (at < 0) {
            return new Outcome(what, result.exit(), code, -1, "", result.err());
        }
        final String[] rest = result.out().substring(at + ExitingHost.ENDING.length()).split("\\R", 2);
        final long endedItself = Long.parseLong(rest[0].trim());
        return new Outcome(what, result.exit(), code, ended - endedItself, rest.length > 1 ? rest[1].trim() : "", result.err());
    }
}
