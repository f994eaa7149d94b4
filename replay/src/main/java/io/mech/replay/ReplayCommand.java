package io.mech.replay;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code java -jar mech.jar replay [options] <log>...}: replays hiccup interval logs offline.
 *
 * <p>Guarantees: {@link #run} never throws and never exits the JVM; every failure is one line on
 * {@code err} and an exit code: 0 when the report was written, 1 when an input is damaged,
 * empty or unreadable (the message reads {@code file:line: what is wrong}) or an output cannot be
 * written, 2 when the command line is wrong, 3 when the tag or window asked for selects no
 * interval (the message says what the logs hold).
 *
 * <p>Example use:
 * <pre>{@code
 * int status = ReplayCommand.run(new String[] {"--html", "fleet.html", "a.hlog", "b.hlog.gz"}, System.out, System.err);
 * }</pre>
 */
public final class ReplayCommand {

    private ReplayCommand() {
    }

    /**
     * Runs the command.
     *
     * @param args options and logs, see {@code --help}
     * @param out  receives the report
     * @param err  receives warnings and errors
     * @return the exit code
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err) {
        return run(args, System.in, out, err);
    }

    static int run(final String[] args, final InputStream stdin, final PrintStream out, final PrintStream err) {
        final ReplayOptions options;
        try {
            options = ReplayOptions.parse(args);
        } catch (final ReplayOptions.UsageException e) {
            err.println("mech replay: " + e.getMessage() + "; java -jar mech.jar replay --help");
            return 2;
        }
        if (options.help) {
            out.print(ReplayOptions.USAGE);
            return 0;
        }
        final List<LogInput> opened = new ArrayList<>();
        try {
            final Inputs inputs = Inputs.expand(options.inputs, options.recursive);
            final PayloadDecoder decoder = new PayloadDecoder();
            final Consumer<String> warnings = w -> err.println("mech replay: " + w);
            final List<IntervalLogReader> hosts = new ArrayList<>();
            final List<IntervalLogReader> controls = new ArrayList<>();
            long totalBytes = 0;
            for (final String name : inputs.hosts()) {
                hosts.add(reader(name, stdin, opened, decoder, options, warnings));
                totalBytes += name.equals("-") ? 0 : Files.size(Path.of(name));
            }
            for (final String name : inputs.controls()) {
                controls.add(reader(name, stdin, opened, decoder, options, warnings));
                totalBytes += Files.size(Path.of(name));
            }
            final ProgressLine progress = ProgressLine.forTerminal(err, totalBytes);
            final Replay.Result result = new Replay(options, hosts, controls, warnings, () -> progress.at(rawBytesRead(opened))).run();
            progress.done();
            if (options.listTags) {
                listTags(out, result.seen());
                return 0;
            }
            if (result.merged().intervals() == 0) {
                err.println("mech replay: " + EmptySelection.describe(options, result.seen()));
                return 3;
            }
            switch (options.format) {
                case CSV -> CsvReport.write(out, result, options);
                case JSON -> JsonReport.write(out, result, options);
                default -> TextReport.write(out, result, options);
            }
            out.flush();
            if (options.html != null) {
                write(options.html, o -> o.write(HtmlPage.render(result, options).getBytes(StandardCharsets.UTF_8)));
            }
            if (options.svg != null) {
                write(options.svg, o -> o.write(Charts.svgDocument(result, options).getBytes(StandardCharsets.UTF_8)));
            }
            if (options.outputPrefix != null) {
                write(options.outputPrefix + ".hgrm", o -> HgrmFile.write(o, result, options, hosts.get(0).startTimeSec()));
            }
            if (options.openMetrics != null) {
                write(options.openMetrics, o -> OpenMetricsExport.write(o, result, options.tag));
            }
            return 0;
        } catch (final LogFormatException e) {
            err.println("mech replay: " + e.getMessage());
            return 1;
        } catch (final IOException e) {
            err.println("mech replay: " + e.getMessage());
            return 1;
        } catch (final RuntimeException | OutOfMemoryError e) {
            // A bug or an input beyond what fits in memory: say so in one line, not a stack trace.
            err.println("mech replay: failed: " + e);
            return 1;
        } finally {
            for (final LogInput in : opened) {
                try {
                    in.stream().close();
                } catch (final IOException ignored) {
                    // nothing was written to it: closing cannot lose data
                }
            }
        }
    }

    /** One line per tag with its line count, untagged lines first, as {@code --list-tags} prints them. */
    private static void listTags(final PrintStream out, final Replay.Seen seen) {
        out.println("lines  tag");
        if (seen.untagged() > 0) {
            out.format("%5d  (untagged)%n", seen.untagged());
        }
        seen.tagged().forEach((tag, lines) -> out.format("%5d  %s%n", lines, tag));
    }

    /** Opens a log for a reader that shares the decoder: one decoder serves a whole merge. */
    private static IntervalLogReader reader(final String name, final InputStream stdin, final List<LogInput> opened,
        final PayloadDecoder decoder, final ReplayOptions options, final Consumer<String> warnings) throws IOException {
        final LogInput in = LogInput.open(name, stdin);
        opened.add(in);
        return new IntervalLogReader(name, new LineReader(in.stream()), options.lenient, warnings, decoder);
    }

    private static long rawBytesRead(final List<LogInput> opened) {
        long total = 0;
        for (final LogInput in : opened) {
            total += in.rawBytesRead();
        }
        return total;
    }

    /** Writes an output file. */
    @FunctionalInterface
    private interface Writing {
        void to(OutputStream out) throws IOException;
    }

    private static void write(final String file, final Writing writing) throws IOException {
        try (OutputStream o = new BufferedOutputStream(new FileOutputStream(file), 64 * 1024)) {
            writing.to(o);
        } catch (final IOException e) {
            throw new IOException(file + ": cannot be written (" + e.getMessage() + ")", e);
        }
    }
}
