package io.mech.examples.measure;

import io.mech.examples.KernelDescriptor;
import io.mech.examples.Kernels;
import io.mech.examples.VariantDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes the throughput table of docs/kernels.md from a real run: every variant in a fresh JVM
 * started with the variant's declared JVM options, so the ground truth the table sits next to
 * is the one that held while it was measured. Usage: {@code KernelTable <output.md> <seconds>}.
 */
public final class KernelTable {

    private static final Pattern RESULT = Pattern.compile("threads=(\\d+) seconds=\\S+ ops=\\d+ ops_per_sec=(\\d+)(.*)");

    private KernelTable() {
    }

    /**
     * @param args output file and seconds per variant
     * @throws Exception if a run fails; the table is then not written
     */
    public static void main(final String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: KernelTable <output.md> <seconds per variant>");
            System.exit(2);
        }
        final Path output = Path.of(args[0]);
        final String seconds = args[1];
        final String java = ProcessHandle.current().info().command().orElse("java");
        final String jar = ownJar();
        final StringBuilder table = new StringBuilder();
        table.append("| kernel | variant | JVM options | threads | ops/s | twin is faster by | must flag |\n");
        table.append("|---|---|---|---:|---:|---:|---|\n");
        for (final KernelDescriptor kernel : Kernels.all()) {
            final Map<String, Double> rates = new HashMap<>();
            final List<String[]> rows = new ArrayList<>();
            for (final VariantDescriptor variant : kernel.variants()) {
                final List<String> command = new ArrayList<>(List.of(java));
                command.addAll(variant.jvmArgs());
                command.addAll(List.of("-jar", jar, kernel.name(), variant.name(), "--seconds", seconds));
                final String line = run(command);
                System.out.println(line);
                final Matcher m = RESULT.matcher(line.substring(line.indexOf("threads=")));
                if (!m.matches()) {
                    throw new IllegalStateException("unparsable result: " + line);
                }
                rates.put(variant.name(), Double.parseDouble(m.group(2)));
                rows.add(new String[] {kernel.name(), variant.name(), String.join(" ", variant.jvmArgs()),
                        m.group(1), m.group(2), variant.twin().orElse(""),
                        variant.findings().isEmpty() ? "silent" : variant.findings().toString()});
            }
            for (final String[] row : rows) {
                final String ratio = row[5].isEmpty() ? "" : String.format(Locale.ROOT, "%.1fx (%s)",
                        rates.get(row[5]) / Double.parseDouble(row[4]), row[5]);
                table.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %,d | %s | %s |%n",
                        row[0], row[1], row[2].isEmpty() ? "" : "`" + row[2] + "`", row[3],
                        Long.parseLong(row[4]), ratio, row[6]));
            }
        }
        Files.writeString(output, document(java, seconds, table.toString()), StandardCharsets.UTF_8);
    }

    private static String document(final String java, final String seconds, final String table)
            throws IOException, InterruptedException {
        final String version = run(List.of(java, "-XshowSettings:properties", "-version"), "java.runtime.version = ");
        return "# Kernels: measured throughput\n\n"
                + "Written by `examples/measure` from one run of `mech-examples.jar`; do not edit by hand.\n"
                + "Each variant ran alone in a fresh JVM with the JVM options its ground truth declares, for "
                + seconds + " s including JIT warm-up, so read the table for orders of magnitude and ladders, "
                + "not for single-digit percentages. \"twin is faster by\" is the fixed twin's throughput "
                + "divided by this variant's. \"must flag\" is the variant's declared ground truth "
                + "(`Kernels.all()`); every other finding must stay silent.\n\n"
                + "Machine: " + cpuModel() + ", " + Runtime.getRuntime().availableProcessors()
                + " cores as the JVM sees them, JDK " + version + ".\n\n"
                + table
                + "\nThe false-sharing defects that depend on where objects land (same-object, static-fields) "
                + "run with `-XX:ObjectAlignmentInBytes=64`, which starts every object on a cache line and "
                + "makes same-line placement certain; object-array runs with default alignment, since "
                + "64-byte alignment would give each cell its own line. Throughput here is operations per "
                + "second of the kernel's own unit: increments, elements transferred, round trips, "
                + "rows scanned, requests.\n";
    }

    private static String cpuModel() throws IOException {
        for (final String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
            if (line.startsWith("model name")) {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return "unknown CPU";
    }

    private static String run(final List<String> command) throws IOException, InterruptedException {
        return run(command, "kernel=");
    }

    private static String run(final List<String> command, final String linePrefix)
            throws IOException, InterruptedException {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String out;
        try (InputStream in = process.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        final int status = process.waitFor();
        if (status != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + status + ":\n" + out);
        }
        for (final String line : out.split("\\R")) {
            final String trimmed = line.trim();
            if (trimmed.startsWith(linePrefix)) {
                if (trimmed.contains("status=skipped")) {
                    throw new IllegalStateException("skipped despite its declared options: " + out);
                }
                return trimmed.substring(linePrefix.equals("kernel=") ? 0 : linePrefix.length());
            }
        }
        throw new IllegalStateException(String.join(" ", command) + " printed no line starting " + linePrefix + ":\n" + out);
    }

    private static String ownJar() throws URISyntaxException {
        return Path.of(KernelTable.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
