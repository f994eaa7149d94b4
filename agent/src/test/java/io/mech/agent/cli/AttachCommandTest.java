package io.mech.agent.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** attach leaves a JVM alone until it catches SIGQUIT, which attach sends it. */
class AttachCommandTest {

    @Test
    void sigquitIsReadFromTheCaughtSignalMask() {
        // a JVM's mask as /proc shows it (SIGQUIT caught), and a process that catches SIGINT alone
        assertTrue(AttachCommand.catchesQuit("Name:\tjava\nSigIgn:\t0000000000000000\nSigCgt:\t2000000181005ccf\n"));
        assertFalse(AttachCommand.catchesQuit("Name:\tsleep\nSigIgn:\t0000000000000000\nSigCgt:\t0000000000000002\n"));
    }

    @Test
    void thisJvmCatchesSigquitAndIsNotKeptWaiting() throws Exception {
        final long pid = ProcessHandle.current().pid();
        final long start = System.nanoTime();
        assertTrue(AttachCommand.awaitQuitHandler(Path.of("/proc", Long.toString(pid)), pid) == null);
        assertTrue(System.nanoTime() - start < AttachCommand.START_WAIT_MILLIS * 1_000_000L);
    }
}
