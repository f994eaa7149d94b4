package io.mech.probes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** mech's threads and JFR's by name. */
class MechThreadsTest {

    @Test
    void mechsThreadsBeginWithMech() {
        assertTrue(MechThreads.isMechs("mech-prometheus-HTTP-Dispatcher"));
        assertTrue(MechThreads.isMechs("mech-jfr-stream"));
        assertFalse(MechThreads.isMechs("HTTP-Dispatcher"));
        assertFalse(MechThreads.isMechs("mechanic-1"));
        assertFalse(MechThreads.isMechs("main"));
        assertFalse(MechThreads.isMechs(""));
        assertFalse(MechThreads.isMechs(null));
    }

    @Test
    void jfrsThreadsBeginWithJfr() {
        assertTrue(MechThreads.isJfrs("JFR Periodic Tasks"));
        assertTrue(MechThreads.isJfrs("JFR Recorder Thread"));
        assertTrue(MechThreads.isJfrs("JFR Shutdown Hook"));
        assertFalse(MechThreads.isJfrs("JFRWriter"));
        assertFalse(MechThreads.isJfrs("mech-jfr-stream"));
        assertFalse(MechThreads.isJfrs(null));
    }

    @Test
    void theCurrentThreadIsJudgedByItsNameNow() throws InterruptedException {
        final AtomicBoolean before = new AtomicBoolean(true);
        final AtomicBoolean after = new AtomicBoolean();
        final Thread thread = new Thread(() -> {
            before.set(MechThreads.currentIsMechs());
            Thread.currentThread().setName("mech-renamed");
            after.set(MechThreads.currentIsMechs());
        }, "HTTP-Dispatcher");
        thread.start();
        thread.join();
        assertFalse(before.get());
        assertTrue(after.get());
        assertEquals("mech-renamed", thread.getName());
    }
}
