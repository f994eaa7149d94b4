package io.mech.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GnuTimeTest {

    @Test
    void addsUserAndSystemSecondsOfTheLastMarkedLine() {
        assertEquals(170, GnuTime.cpuMillis("warning: a line of the child's\nmech-bench-cpu 0.12 0.05\n"), 1e-9);
    }

    @Test
    void findsTheMarkAfterAChildsLastLineLeftUnfinished() {
        assertEquals(1010, GnuTime.cpuMillis("hello\nno newline at the endmech-bench-cpu 1.00 0.01\n"), 1e-9);
    }
}
