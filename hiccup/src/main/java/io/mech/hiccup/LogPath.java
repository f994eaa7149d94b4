package io.mech.hiccup;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.TimeZone;

/**
 * Expands the placeholders of a log path template: {@code %pid} (the process that records, not
 * the one that attached it), {@code %date} (local time, {@code yyyyMMdd-HHmmss}) and
 * {@code %host} (the host name).
 */
public final class LogPath {

    private LogPath() {
    }

    /**
     * Expands a template for the given process.
     *
     * @param template a path that may hold %pid, %date and %host
     * @param pid      the pid of the JVM whose hiccups are logged
     * @param now      the time that %date stands for
     * @return the expanded path
     */
    public static String expand(final String template, final long pid, final LocalDateTime now) {
        String path = template.replace("%pid", Long.toString(pid));
        if (path.contains("%date")) {
            path = path.replace("%date", date(now));
        }
        if (path.contains("%host")) {
            path = path.replace("%host", hostName());
        }
        return path;
    }

    /**
     * The local time now, read through {@link TimeZone} rather than java.time's zone rules: the
     * JVM loads the former anyway, the latter would cost the host's start-up another 20 ms.
     */
    public static LocalDateTime localNow() {
        final long millis = System.currentTimeMillis();
        final int offsetSeconds = TimeZone.getDefault().getOffset(millis) / 1000;
        return LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000), 0, ZoneOffset.ofTotalSeconds(offsetSeconds));
    }

    /** {@code yyyyMMdd-HHmmss}, without the cost of loading DateTimeFormatter. */
    static String date(final LocalDateTime t) {
        return String.valueOf(t.getYear()) + two(t.getMonthValue()) + two(t.getDayOfMonth())
            + '-' + two(t.getHour()) + two(t.getMinute()) + two(t.getSecond());
    }

    private static String two(final int value) {
        return value < 10 ? "0" + value : Integer.toString(value);
    }

    /** The host name without a DNS round trip where the kernel can tell it directly. */
    static String hostName() {
        try {
            final Path kernelName = Path.of("/proc/sys/kernel/hostname");
            if (Files.isReadable(kernelName)) {
                return Files.readString(kernelName, StandardCharsets.US_ASCII).trim();
            }
            return InetAddress.getLocalHost().getHostName();
        } catch (final IOException e) {
            return "localhost";
        }
    }
}
