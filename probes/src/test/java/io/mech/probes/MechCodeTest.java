package io.mech.probes;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** mech's own classes by name, in binary and internal form. */
class MechCodeTest {

    @ParameterizedTest
    @ValueSource(strings = {"io.mech.agent.Mech", "io/mech/agent/Mech", "io.mech.probes.queues.QueueRegistry",
        "io.mech.shaded.net.bytebuddy.ByteBuddy", "io/mech/shaded/io/prometheus/metrics/exporter/httpserver/HTTPServer",
        "io.mech.exporter.PrometheusEndpoint$1", "io.mech.Future"})
    void mechsPackagesAndRelocatedLibrariesAreMechs(final String className) {
        assertTrue(MechCode.contains(className));
    }

    @ParameterizedTest
    @ValueSource(strings = {"io.mech.examples.locks.SynchronizedCounter", "io/mech/examples/Main",
        "io.mechanic.Engine", "io/mechanic/Engine", "io.mech", "io.Mech", "app.Main", "workloads.Workloads",
        "java.util.concurrent.ArrayBlockingQueue", "org.jctools.queues.MpscArrayQueue", ""})
    void exampleKernelsAndEverythingElseAreNot(final String className) {
        assertFalse(MechCode.contains(className));
    }

    @Test
    void thisClassIsMechs() {
        assertTrue(MechCode.contains(MechCodeTest.class.getName()));
        assertFalse(MechCode.contains(workloads.Workloads.class.getName()));
    }
}
