package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.SleepingHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code java -jar mech.jar attach}: loads into a running JVM, refuses clearly otherwise. */
@QuietHosts
class AttachTest {

    @TempDir
    Path dir;


    private static List<String> attach(final Path jdk, final String... args) {
        final List<String> command = new ArrayList<>(List.of(Jdks.java(jdk), "-jar", Paths.mechJar().toString(), "attach"));
        command.addAll(List.of(args));
        return command;
    }

    private static Path currentJdk() {
        return Path.of(System.getProperty("java.home"));
    }

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void attachLoadsMechAndTheLogIsNamedAfterTheTarget(final Path jdk) throws Exception {
        final Forked host = Forked.start(dir, List.of(Jdks.java(jdk), "-cp", Paths.testClasses(),
            SleepingHost.class.getName(), "4000"));
        host.awaitJvmStarted();
        final Forked.Result attached = Forked.run(dir,
            attach(jdk, Long.toString(host.pid()), "hiccup.interval=500ms,report=off,prometheus.port=0,hiccup.log=att.%pid.hlog"), 30);
        final Path log = dir.resolve("att." + host.pid() + ".hlog");
        assertEquals(0, attached.exit(), attached.err());
        assertTrue(attached.out().contains("hiccup log: " + log), attached.out());

        final Forked.Result second = Forked.run(dir, attach(jdk, Long.toString(host.pid())), 30);
        assertEquals(1, second.exit());
        assertTrue(second.err().contains("already runs"), second.err());

        assertEquals(0, host.await(30).exit());
        assertTrue(HdrTools.intervalLines(log).size() >= 3, "the attached mech logged intervals");
    }

    @Test
    void refusedOptionsAndAnUnwritableLogAreToldToTheAttacherWithExitCodeOne() throws Exception {
        final Path jdk = currentJdk();
        final Forked host = Forked.start(dir, List.of(Jdks.java(jdk), "-cp", Paths.testClasses(),
            SleepingHost.class.getName(), "4000"));
        final Path missing = dir.resolve("no-such-dir").resolve("x.hlog");
        final Forked.Result attached = Forked.run(dir,
            attach(jdk, Long.toString(host.pid()), "hiccup.log=" + missing + ",hiccup.interval=bad,report=off,prometheus=off"), 30);
        assertEquals(1, attached.exit(), attached.out() + attached.err());
        assertTrue(attached.err().contains("says: option 'hiccup.interval'"), "the target's warning reaches the attacher: " + attached.err());
        assertTrue(attached.err().contains("says: cannot write hiccup log " + missing), attached.err());
        assertTrue(attached.out().contains("hiccup log not written: " + missing), attached.out());
        assertTrue(attached.out().contains("1 option was refused"), attached.out());
        assertTrue(!attached.out().contains("hiccup log: "), "no log path is claimed: " + attached.out());
        assertEquals(0, host.await(30).exit());
    }

    @Test
    void missingPidIsAOneLineError() throws Exception {
        final Forked.Result result = Forked.run(dir, attach(currentJdk(), "2147483000"), 30);
        assertEquals(1, result.exit());
        assertEquals(List.of("mech attach: no process with pid 2147483000"), result.err().lines().toList());
    }

    @Test
    void aProcessThatIsNotAJvmIsLeftAlone() throws Exception {
        final Forked sleeper = Forked.start(dir, List.of("sleep", "20"));
        try {
            final Forked.Result result = Forked.run(dir, attach(currentJdk(), Long.toString(sleeper.pid())), 30);
            assertEquals(1, result.exit());
            assertEquals(1, result.err().lines().count(), result.err());
            assertTrue(result.err().contains("is not a JVM"), result.err());
            assertTrue(ProcessHandle.of(sleeper.pid()).map(ProcessHandle::isAlive).orElse(false), "no signal reached it");
        } finally {
            ProcessHandle.of(sleeper.pid()).ifPresent(ProcessHandle::destroy);
        }
    }

    @Test
    void aJvmThatRefusesAttachIsAOneLineError() throws Exception {
        final Forked host = Forked.start(dir, List.of(Jdks.java(currentJdk()), "-XX:+DisableAttachMechanism",
            "-cp", Paths.testClasses(), SleepingHost.class.getName(), "3000"));
        host.awaitJvmStarted();
        final Forked.Result result = Forked.run(dir, attach(currentJdk(), Long.toString(host.pid())), 30);
        assertEquals(1, result.exit());
        assertEquals(1, result.err().lines().count(), result.err());
        assertTrue(result.err().contains("refuses attach"), result.err());
        assertEquals(0, host.await(30).exit());
    }

    @Test
    void aJvmOfAnotherUserIsAOneLineError() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/usr/bin/setpriv")),
            "needs root to start a JVM as another user");
        final Forked host = Forked.start(dir, List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
            Jdks.java(currentJdk()), "-cp", Paths.testClasses(), SleepingHost.class.getName(), "3000"));
        host.awaitJvmStarted();
        final Forked.Result result = Forked.run(dir, attach(currentJdk(), Long.toString(host.pid())), 30);
        assertEquals(1, result.exit());
        assertEquals(1, result.err().lines().count(), result.err());
        assertTrue(result.err().contains("belongs to user"), result.err());
        host.await(30);
    }
}
