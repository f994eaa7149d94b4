package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.LibraryHost;
import java.io.File;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** mech's shaded copies of its dependencies never meet the host's own versions. */
@QuietHosts
class HostLibrariesTest {

    @TempDir
    Path dir;


    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void hostWithItsOwnHdrHistogramAndByteBuddyRunsUnharmed(final Path jdk) throws Exception {
        final Path hdr = Paths.hostLibrary("HdrHistogram-2.1.12.jar");
        final Path byteBuddy = Paths.hostLibrary("byte-buddy-1.14.19.jar");
        final String classpath = String.join(File.pathSeparator, Paths.testClasses(), hdr.toString(), byteBuddy.toString());
        final Path log = dir.resolve("lib.hlog");
        final Forked.Result result = Forked.run(dir, Forked.javaWithMech(jdk,
            // /metrics on a port of its own: the default one may be another process's, and its warning would be a line on stderr
            "hiccup.interval=200ms,report=off,prometheus.port=0,hiccup.log=" + log,
            // ByteBuddy 1.14 predates class files of Java 25; the host would need this flag without mech too.
            "-Dnet.bytebuddy.experimental=true",
            "-cp", classpath, LibraryHost.class.getName(), "1000"), 60);
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.out().contains("hdrhistogram=file:" + hdr), result.out());
        assertTrue(result.out().contains("bytebuddy=file:" + byteBuddy), result.out());
        assertTrue(result.out().contains("generated=io.mech.it.hosts.Generated"), result.out());
        assertTrue(HdrTools.intervalLines(log).size() >= 4, "mech recorded beside the host's libraries");
        assertEquals(0, result.mechLines().size(), result.err());
    }
}
