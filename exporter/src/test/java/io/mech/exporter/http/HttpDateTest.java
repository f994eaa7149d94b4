package io.mech.exporter.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The Date header written without a formatter reads as the JDK's RFC 1123 formatter writes it. */
class HttpDateTest {

    private static final DateTimeFormatter RFC_1123 = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    @Test
    void everyInstantFrom1970To2400ReadsAsTheJdkWritesIt() {
        final SplittableRandom random = new SplittableRandom(7);
        final HttpDate date = new HttpDate();
        for (int i = 0; i < 100_000; i++) {
            final long millis = random.nextLong(0, 13_569_465_600_000L);
            final String expected = RFC_1123.format(Instant.ofEpochMilli(millis));
            // the JDK writes days of the month below 10 with one digit; HTTP wants two
            final String twoDigits = expected.charAt(6) == ' ' ? expected.substring(0, 5) + "0" + expected.substring(5) : expected;
            assertEquals(twoDigits, new String(date.at(millis), StandardCharsets.US_ASCII), "at " + millis);
        }
    }

    @Test
    void leapDaysAndTheTurnOfEachYearAreRight() {
        final HttpDate date = new HttpDate();
        assertEquals("Thu, 01 Jan 1970 00:00:00 GMT", new String(date.at(0), StandardCharsets.US_ASCII));
        assertEquals("Tue, 29 Feb 2000 23:59:59 GMT", new String(date.at(951_868_799_000L), StandardCharsets.US_ASCII));
        assertEquals("Thu, 29 Feb 2024 12:00:00 GMT", new String(date.at(1_709_208_000_000L), StandardCharsets.US_ASCII));
        assertEquals("Fri, 01 Jan 2027 00:00:00 GMT", new String(date.at(1_798_761_600_000L), StandardCharsets.US_ASCII));
    }
}
