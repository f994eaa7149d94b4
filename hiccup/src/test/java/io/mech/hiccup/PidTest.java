package io.mech.hiccup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PidTest {

    @Test
    void isThisProcess() {
        assertEquals(ProcessHandle.current().pid(), Pid.current());
    }
}
