package io.mech.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The distribution rows of {@code replay} are those of HdrHistogram's own HistogramLogProcessor
 * (run in a forked JVM) on the same log with the same window, tag, ticks, unit and correction.
 */
class DistributionIdentityTest {

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        final List<Arguments> cases = new ArrayList<>();
        for (final String log : TestLogs.ALL) {
            cases.add(Arguments.of(log, new String[0], new String[0]));
            cases.add(Arguments.of(log, new String[] {"-start", "30", "-end", "90.5"}, new String[] {"--start", "30s", "--end", "90.5s"}));
        }
        cases.add(Arguments.of(TestLogs.MECH, new String[] {"-outputValueUnitRatio", "1000"}, new String[] {"--unit-ratio", "1000"}));
        cases.add(Arguments.of(TestLogs.WRITER, new String[] {"-percentilesOutputTicksPerHalf", "3", "-outputValueUnitRatio", "1e9"},
            new String[] {"--ticks", "3", "--unit-ratio", "1e9"}));
        cases.add(Arguments.of(TestLogs.TAGGED, new String[] {"-tag", "gc"}, new String[] {"--tag", "gc"}));
        cases.add(Arguments.of(TestLogs.TAGGED, new String[] {"-tag", "io", "-start", "10", "-end", "20"},
            new String[] {"--tag", "io", "--start", "10s", "--end", "20s"}));
        cases.add(Arguments.of(TestLogs.MECH, new String[] {"-correctLogWithKnownCoordinatedOmission", "200000"},
            new String[] {"--correct", "200us"}));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void rowsAreHistogramLogProcessorsRows(final String log, final String[] hlpOptions, final String[] replayOptions) throws Exception {
        final Path file = TestLogs.copy(log, dir);
        final List<String> expected = Outcome.distribution(HistogramLogProcessorRun.hgrm(file, dir, hlpOptions));
        final List<String> args = new ArrayList<>(List.of(replayOptions));
        args.add(file.toString());
        final Outcome outcome = Outcome.replay(args.toArray(new String[0]));
        assertEquals(0, outcome.code(), outcome.err());
        assertTrue(expected.size() > 10, "HistogramLogProcessor printed no distribution: " + expected);
        assertEquals(expected, Outcome.distribution(outcome.out()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("logs")
    void csvRowsAreHistogramLogProcessorsCsvRows(final String log) throws Exception {
        final Path file = TestLogs.copy(log, dir);
        final List<String> expected = Outcome.csvDistribution(HistogramLogProcessorRun.hgrm(file, dir, "-csv"));
        final Outcome outcome = Outcome.replay("--format", "csv", file.toString());
        assertEquals(0, outcome.code(), outcome.err());
        assertTrue(expected.size() > 10, "HistogramLogProcessor printed no distribution: " + expected);
        assertEquals(expected, Outcome.csvDistribution(outcome.out()));
    }

    static Stream<String> logs() {
        return Stream.of(TestLogs.MECH, TestLogs.HEADERLESS);
    }
}
