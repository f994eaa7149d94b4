package io.mech.exporter.http;

import java.nio.charset.StandardCharsets;

/**
 * The value of a Date header, {@code Sun, 06 Nov 1994 08:49:37 GMT}, written afresh once a second
 * into bytes of its own: no formatter, no time zone rules, no garbage.
 *
 * <p>Used by one serving thread.
 */
final class HttpDate {

    static final int LENGTH = 29;

    private static final byte[] DAYS = "ThuFriSatSunMonTueWed".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec".getBytes(StandardCharsets.US_ASCII);

    private final byte[] text = new byte[LENGTH];
    private long second = Long.MIN_VALUE;

    /** @return the date of this epoch millisecond, in bytes valid until the next call */
    byte[] at(final long epochMillis) {
        final long now = Math.floorDiv(epochMillis, 1000);
        if (now != second) {
            second = now;
            write(now);
        }
        return text;
    }

    private void write(final long epochSecond) {
        final long days = Math.floorDiv(epochSecond, 86_400);
        final int secondOfDay = Math.floorMod(epochSecond, 86_400);
        // 1 January 1970 was a Thursday: DAYS starts there
        System.arraycopy(DAYS, Math.floorMod(days, 7) * 3, text, 0, 3);
        text[3] = ',';
        text[4] = ' ';
        // the civil date of a day count, in eras of 400 years that begin on 1 March 0000
        final long shifted = days + 719_468;
        final long era = Math.floorDiv(shifted, 146_097);
        final long dayOfEra = shifted - era * 146_097;
        final long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        final long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        final long monthFromMarch = (5 * dayOfYear + 2) / 153;
        final int day = (int) (dayOfYear - (153 * monthFromMarch + 2) / 5 + 1);
        final int month = (int) (monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9);
        final long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        two(5, day);
        text[7] = ' ';
        System.arraycopy(MONTHS, (month - 1) * 3, text, 8, 3);
        text[11] = ' ';
        two(12, (int) (year / 100));
        two(14, (int) (year % 100));
        text[16] = ' ';
        two(17, secondOfDay / 3600);
        text[19] = ':';
        two(20, secondOfDay / 60 % 60);
        text[22] = ':';
        two(23, secondOfDay % 60);
        text[25] = ' ';
        text[26] = 'G';
        text[27] = 'M';
        text[28] = 'T';
    }

    private void two(final int at, final int value) {
        text[at] = (byte) ('0' + value / 10);
        text[at + 1] = (byte) ('0' + value % 10);
    }
}
