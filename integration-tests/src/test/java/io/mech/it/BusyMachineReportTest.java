package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.SleepingHost;
import io.mech.testing.JsonReader;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report always comes on a machine with twice as many busy threads as cores: 20
 * short-lived hosts, spread over the JDKs, each write their final text report and
 * {@code report.json}, and none gives up. Before the report's code was loaded ahead of the
 * exit, 4 of 4 idle 3 s hosts beside 6 busy loops on 2 cores lost both.
 */
class BusyMachineReportTest {

    private static final int HOSTS = 20;

    @TempDir
    Path dir;

    @Test
    void twentyOfTwentyHostsWriteTheirReportBesideTwiceAsManyBusyThreadsAsCores() throws Exception {
        final List<Path> jdks = Jdks.installed();
        final List<String> failed = new ArrayList<>();
        try (BusyThreads busy = new BusyThreads(2 * Runtime.getRuntime().availableProcessors())) {
            for (int i = 0; i < HOSTS; i++) {
                final Path jdk = jdks.get(i % jdks.size());
                final long sleepMillis = 300 + (i * 389L) % 1_500;
                final Path own = Files.createDirectory(dir.resolve("host" + i));
                final Path text = own.resolve("report.txt");
                final Path json = own.resolve("report.json");
                final Forked.Result result = Forked.run(own, Forked.javaWithMech(jdk,
                    "prometheus.port=0,report=" + text + ",report.json=" + json,
                    "-cp", Paths.testClasses(), SleepingHost.class.getName(), Long.toString(sleepMillis)), 60);
                final String what = jdk.getFileName() + ", " + sleepMillis + " ms";
                if (result.exit() != 0 || !result.out().contains("host done")) {
                    failed.add(what + ": exit " + result.exit() + ", " + result.err());
                } else if (!Files.exists(text) || !Files.exists(json)) {
                    failed.add(what + ": report " + Files.exists(text) + ", report.json " + Files.exists(json) + "; " + result.err());
                } else {
                    final String report = Files.readString(json);
                    if (!ranAtLeast(report, sleepMillis) || !Files.readString(text).contains("hiccup")
                        || !result.mechLines().isEmpty()) {
                        failed.add(what + ": not the final report, or mech said something: " + report + " " + result.err());
                    }
                }
            }
            assertTrue(busy.spun(), "the busy threads ran");
        }
        assertTrue(failed.isEmpty(), failed.size() + " of " + HOSTS + " hosts beside busy threads lost their report: " + failed);
    }

    /** Whether the report is whole JSON and says its run lasted at least that long: the final report does. */
    private static boolean ranAtLeast(final String report, final long millis) {
        try {
            return JsonReader.object(report).get("run_ms") instanceof BigDecimal run && run.longValueExact() >= millis;
        } catch (final IllegalArgumentException notWhole) {
            return false;
        }
    }

    /** Threads that spin until closed, so that more threads are ready to run than there are cores. */
    private static final class BusyThreads implements AutoCloseable {

        private volatile boolean running = true;
        private final AtomicLong spins = new AtomicLong();
        private final List<Thread> threads = new ArrayList<>();

        BusyThreads(final int count) {
            for (int i = 0; i < count; i++) {
                final Thread thread = new Thread(() -> {
                    long local = 0;
                    while (running) {
                        local++;
                    }
                    spins.addAndGet(local);
                }, "busy-" + i);
                thread.setDaemon(true);
                thread.start();
                threads.add(thread);
            }
        }

        boolean spun() {
            close();
            return spins.get() > 0;
        }

        @Override
        public void close() {
            running = false;
            try {
                for (final Thread thread : threads) {
                    thread.join();
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
