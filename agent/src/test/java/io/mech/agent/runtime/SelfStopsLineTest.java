package io.mech.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.mech.hiccup.cause.OwnOperations;
import java.util.List;
import org.junit.jupiter.api.Test;

class SelfStopsLineTest {

    @Test
    void eachKindSaysItsCallsSafepointsAndTime() {
        assertEquals("mech's own stops: RetransformClasses x2: 1 safepoint, 7.10 ms; JFR start x1: 3 safepoints, 0.25 ms",
            SelfCpuPart.stopsLine(List.of(new OwnOperations.Stop("RetransformClasses", 2, 1, 7_100_000),
                new OwnOperations.Stop("JFR start", 1, 3, 250_000))));
    }

    @Test
    void withoutCountersTheCallsAreStillNamed() {
        assertEquals("mech's own stops: RetransformClasses x1: not timed, the JVM keeps no safepoint counters (-XX:-UsePerfData)",
            SelfCpuPart.stopsLine(List.of(new OwnOperations.Stop("RetransformClasses", 1, -1, -1))));
    }

    @Test
    void noCallNoLine() {
        assertNull(SelfCpuPart.stopsLine(List.of()));
    }
}
