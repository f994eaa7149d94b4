package io.mech.hiccup.cause;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class OwnOperationsTest {

    @Test
    void aCallAroundASafepointIsTimedByTheCounters() {
        final OwnOperations own = new OwnOperations();
        final OwnOperations.Operation dump = own.begin("ThreadDump");
        // a stack dump of every thread is a safepoint operation on every JDK this runs on
        assertTrue(Thread.getAllStackTraces().size() > 0);
        own.end(dump);
        final OwnOperations.Operation nothing = own.begin("ThreadDump");
        own.end(nothing);
        final List<OwnOperations.Stop> stops = own.stops();
        assertEquals(1, stops.size(), stops.toString());
        final OwnOperations.Stop stop = stops.get(0);
        assertEquals("ThreadDump", stop.name());
        assertEquals(2, stop.calls());
        assertTrue(stop.safepoints() >= 1, "the dump's safepoint: " + stop);
        assertTrue(stop.nanos() > 0, "time at it: " + stop);
    }

    @Test
    void kindsAreKeptInTheOrderFirstAskedFor() {
        final OwnOperations own = new OwnOperations();
        own.end(own.begin("JFR start"));
        own.end(own.begin("RetransformClasses"));
        own.end(own.begin("JFR start"));
        assertEquals(List.of("JFR start", "RetransformClasses"), own.stops().stream().map(OwnOperations.Stop::name).toList());
        assertEquals(2, own.stops().get(0).calls());
    }
}
