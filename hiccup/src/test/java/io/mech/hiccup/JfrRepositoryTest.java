package io.mech.hiccup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mech.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** In this JVM: the repository JFR makes for a stream is made owner-only; one that was there before is left alone. */
class JfrRepositoryTest {

    @Test
    void theRepositoryAStreamMadeBecomesOwnerOnlyAndOneThatWasThereIsLeftAlone() throws Exception {
        Assumptions.assumeTrue(System.getProperty(JfrRepository.PROPERTY) == null, "needs a JVM without a JFR repository yet");
        Assumptions.assumeTrue(Path.of(System.getProperty("java.io.tmpdir")).getFileSystem().supportedFileAttributeViews().contains("posix"),
            "needs POSIX permissions");
        final List<String> warnings = new CopyOnWriteArrayList<>();
        final JfrRepository repository = JfrRepository.beforeStart();
        try (RecordingStream stream = new RecordingStream()) {
            stream.onFlush(() -> repository.makePrivate(warnings::add));
            stream.startAsync();
            Await.until("the repository made private", Duration.ofSeconds(20), JfrRepositoryTest::privateYet);
            assertEquals(List.of(), warnings);
            final Path made = Path.of(System.getProperty(JfrRepository.PROPERTY));
            assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(made), made.toString());

            // From now on the repository was there before: the user's, whatever its permissions.
            Files.setPosixFilePermissions(made, PosixFilePermissions.fromString("rwxr-xr-x"));
            JfrRepository.beforeStart().makePrivate(warnings::add);
            assertEquals(PosixFilePermissions.fromString("rwxr-xr-x"), Files.getPosixFilePermissions(made));
            assertEquals(List.of(), warnings);
        }
    }

    private static boolean privateYet() throws Exception {
        final String path = System.getProperty(JfrRepository.PROPERTY);
        return path != null && Files.getPosixFilePermissions(Path.of(path)).equals(PosixFilePermissions.fromString("rwx------"));
    }
}
