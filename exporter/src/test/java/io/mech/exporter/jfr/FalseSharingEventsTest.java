package io.mech.exporter.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mech.exporter.FalseSharingFamiliesTest;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each verdict of a finished window is one mech.FalseSharing event in the user's recording. */
class FalseSharingEventsTest {

    @TempDir
    Path dir;

    @Test
    void aVerdictIsAnEventWithItsClassFieldsAndScore() throws Exception {
        final Path file = dir.resolve("rec.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("mech.FalseSharing");
            recording.start();
            new FalseSharingEvents().windowDone(FalseSharingFamiliesTest.done());
            recording.stop();
            recording.dump(file);
        }
        final List<RecordedEvent> events = RecordingFile.readAllEvents(file).stream()
            .filter(e -> e.getEventType().getName().equals("mech.FalseSharing")).toList();
        assertEquals(1, events.size());
        final RecordedEvent event = events.get(0);
        assertEquals("false sharing", event.getString("verdict"));
        assertEquals("a.Pair", event.getString("className"));
        assertEquals("first,second", event.getString("fields"));
        assertEquals("16,24", event.getString("offsets"));
        assertEquals("t1,t2", event.getString("threads"));
        assertEquals(3e6, event.getDouble("rateA"));
        assertEquals(2e6, event.getDouble("rateB"));
        assertEquals(1.75e6, event.getDouble("score"));
    }
}
