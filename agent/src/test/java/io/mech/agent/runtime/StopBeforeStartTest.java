package io.mech.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.agent.Parts;
import io.mech.agent.options.Option;
import io.mech.agent.options.Options;
import io.mech.exporter.MetricFamilies;
import io.mech.report.Section;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host that exits in its first milliseconds, before {@code mech-start} has run at all: the part
 * that started before main (its weaving has counted the host since premain) is settled, closed and
 * in the final report all the same. CI saw the queue probe's section missing from a 119 ms host.
 */
class StopBeforeStartTest {

    @TempDir
    Path dir;

    @Test
    void aPartStartedBeforeMainIsStoppedAndReportedWhenTheHostExitsFirst() throws Exception {
        final List<String> done = new CopyOnWriteArrayList<>();
        final Part part = new Part() {
            @Override
            public String name() {
                return "early";
            }

            @Override
            public List<MetricFamilies> families() {
                return List.of();
            }

            @Override
            public Section section() {
                done.add("report");
                return new Section("early", List.of("counted since premain"), List.of());
            }

            @Override
            public void settle(final long deadline) {
                done.add("settle");
            }

            @Override
            public void close() {
                done.add("close");
            }
        };
        final PartSpec spec = new PartSpec("early", List.of(Option.onOff("test.early", "on", "a test's part")),
            PartSpec.Stage.EARLY, true, null, context -> part);
        final Path json = dir.resolve("report.json");
        final Options options = Options.parse(Parts.options(), "hiccup=off,probes.locks=off,prometheus=off,report=" + dir.resolve("report.txt")
            + ",report.json=" + json, new Properties(), Map.of(), warning -> { });
        final Mech mech = new Mech(options, false, null, List.of(spec));
        mech.startBeforeMain();

        mech.stop(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ExitBudget.STOP_BUDGET_MILLIS));

        final String report = Files.readString(json);
        assertTrue(report.contains("\"early\":{\"lines\":[\"counted since premain\"]"), report);
        assertEquals(List.of("settle", "close", "report"), done);
        assertEquals(0, mech.errors().count("report early"));
    }
}
