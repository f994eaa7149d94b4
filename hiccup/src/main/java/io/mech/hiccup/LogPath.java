package io.mech.hiccup;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Expands the placeholders of a log path template: {@code %pid} (the process that records, not
 * the one that attached it), {@code %date} (local time, {@code yyyyMMdd-HHmmss}) and
 * {@code %host} (the host name).
 */
public final class LogPath {

    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

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
            path = path.replace("%date", DATE.format(now));
        }
        if (path.contains("%host")) {
            path = path.replace("%host", hostName());
        }
        return path;
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
