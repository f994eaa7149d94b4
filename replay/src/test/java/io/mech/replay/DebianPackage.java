package io.mech.replay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Makes sure a tool from a Debian package is installed, installing it with apt-get when missing. */
final class DebianPackage {

    private DebianPackage() {
    }

    /**
     * @param binary  the tool's path, e.g. /usr/bin/promtool
     * @param name    the package that provides it
     * @return the tool's path
     * @throws IOException saying what failed when the tool is missing and cannot be installed
     */
    static synchronized Path require(final Path binary, final String name) throws IOException, InterruptedException {
        if (Files.isExecutable(binary)) {
            return binary;
        }
        final Process install = new ProcessBuilder("apt-get", "install", "-y", "--no-install-recommends", name)
            .redirectErrorStream(true).start();
        final byte[] output = install.getInputStream().readAllBytes();
        if (!install.waitFor(600, TimeUnit.SECONDS) || install.exitValue() != 0 || !Files.isExecutable(binary)) {
            throw new IOException(binary + " is missing and 'apt-get install -y --no-install-recommends " + name
                + "' failed (run it as root, or install " + name + " first):\n" + new String(output, StandardCharsets.UTF_8));
        }
        return binary;
    }
}
