package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The virtual-thread meter under mech's defaults, on JDK 21 and later (skipped on older JDKs):
 * the {@code carrier-wait} kernel, whose virtual threads hold every carrier with 50 ms of
 * computing at a time, stalls the virtual meter ({@code Tag=virtual} in the log, {@code virtual}
 * in the report) at least ten times as long as its twin, which computes on platform threads;
 * the platform meter does not tell the two apart that way.
 */
class VirtualThreadMeterTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void busyCarriersStallTheVirtualMeterAndNotThePlatformOne(final Path jdk) throws Exception {
        Assumptions.assumeTrue(Jdks.feature(jdk) >= 21, "virtual threads need JDK 21, " + jdk + " is " + Jdks.feature(jdk));
        final Run defect = run(jdk, "virtual-compute");
        final Run twin = run(jdk, "platform-compute");
        // What the virtual meter waits beyond the platform meter is the wait for a carrier: the
        // operating system's own delays (a loaded machine, the kernel's busy threads) stall both.
        final String figures = "stalled, platform and virtual meter: " + defect + " beside virtual threads holding the carriers, "
            + twin + " beside the twin";
        assertTrue(defect.carrierWaitMs() >= 10 * Math.max(twin.carrierWaitMs(), 50), figures);
        assertTrue(defect.hostStallMs < 10 * Math.max(twin.hostStallMs, 50), figures);
        assertTrue(defect.virtualLogMaxMs >= 20, "the log's Tag=virtual lines hold the waits: max " + defect.virtualLogMaxMs + " ms");
    }

    private record Run(double hostStallMs, double virtualStallMs, double virtualLogMaxMs) {
        double carrierWaitMs() {
            return virtualStallMs - hostStallMs;
        }
    }

    private Run run(final Path jdk, final String variant) throws Exception {
        final Path json = dir.resolve(variant + ".json");
        final Path log = dir.resolve(variant + ".hlog");
        final Forked.Result result = Forked.run(dir, Forked.javaWithMech(jdk,
            "prometheus=off,report=off,hiccup.causes=off,probes.locks=off,hiccup.interval=1s,report.json=" + json + ",hiccup.log=" + log,
            "-jar", Paths.examplesJar().toString(), "carrier-wait:" + variant, "--seconds", "5"), 120);
        assertEquals(0, result.exit(), result.err());
        final String report = Files.readString(json);
        return new Run(stallMs(report, "host"), stallMs(report, "virtual"), HdrTools.max(HdrTools.processLog(log, "-tag", "virtual")));
    }

    private static double stallMs(final String report, final String meter) {
        final Matcher m = Pattern.compile("\\{\"jvm\":\"" + meter + "\",[^}]*\"stall_ms\":([0-9.]+)").matcher(report);
        assertTrue(m.find(), meter + " in " + report);
        return Double.parseDouble(m.group(1));
    }
}
