package io.mech.hiccup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class LogPathTest {

    @Test
    void expandsPidDateAndHost() {
        final String path = LogPath.expand("/logs/%host/hiccup.%date.%pid.hlog", 4242, LocalDateTime.of(2026, 11, 21, 9, 5, 7));
        assertEquals("/logs/" + LogPath.hostName() + "/hiccup.20261121-090507.4242.hlog", path);
        assertFalse(LogPath.hostName().isEmpty());
    }

    @Test
    void localNowIsTheZonedLocalTime() {
        final LocalDateTime before = LocalDateTime.now().withNano(0);
        final LocalDateTime now = LogPath.localNow();
        final LocalDateTime after = LocalDateTime.now();
        assertFalse(now.isBefore(before) || now.isAfter(after), before + " <= " + now + " <= " + after);
    }

    @Test
    void leavesPathsWithoutPlaceholdersAlone() {
        assertEquals("plain.hlog", LogPath.expand("plain.hlog", 1, LocalDateTime.now()));
    }
}
