package io.mech.agent.runtime;

import io.mech.agent.options.Destination;
import io.mech.agent.options.Option;
import io.mech.agent.options.Options;
import io.mech.exporter.InternalErrors;
import io.mech.hiccup.FileTarget;
import io.mech.hiccup.Pid;
import io.mech.hiccup.cause.Cause;
import io.mech.probes.Periodic;
import io.mech.report.CauseSummary;
import io.mech.report.HiccupSummary;
import io.mech.report.JsonReport;
import io.mech.report.Report;
import io.mech.report.Section;
import io.mech.report.TextReport;
import io.mech.report.Unmetered;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Gathers a {@link Report} from the running parts and writes it where the options say.
 *
 * <p>Threads: {@code mech-start} creates it and calls {@link #startPeriodic}, the
 * {@code mech-report} thread then writes every {@code report.interval}, and {@code mech-stop}
 * calls {@link #finalReport} at exit. Every write holds {@link #writing}, so a periodic report
 * never interleaves with the final one, and once the final report has begun, {@link #finished}
 * (guarded by the same lock) keeps the periodic thread from writing over it; the final report
 * also closes that thread's {@link Periodic} runner, so that it ends at once instead of at its
 * next wake, without an interrupt that could cut a file write short.
 */
final class Reporter {

    private final Object writing = new Object();
    private boolean finished;
    /** The periodic reports' runner; null until it starts, and when reports are not periodic. */
    private volatile Periodic periodic;

    private final Options options;
    private final List<Part> parts;
    private final long startNanos;
    private final InternalErrors errors;
    private final String withoutHiccups;

    /**
     * @param parts      the running parts, asked for their rows, notes and sections at each report;
     *                   a list that grows as parts start
     * @param startNanos when mech started
     * @param errors     where a part whose report throws is counted
     * @param withoutHiccups the note of a report without hiccups: why it has none
     */
    Reporter(final Options options, final List<Part> parts, final long startNanos, final InternalErrors errors, final String withoutHiccups) {
        this.options = options;
        this.parts = parts;
        this.startNanos = startNanos;
        this.errors = errors;
        this.withoutHiccups = withoutHiccups;
    }

    /** Starts the {@code mech-report} thread when {@code report.interval} asks for periodic reports. */
    void startPeriodic() {
        final long every = options.get(Option.REPORT_INTERVAL);
        if (every <= 0 || !wanted()) {
            return;
        }
        periodic = Periodic.start("mech-report", every, false, () -> {
            synchronized (writing) {
                if (!finished) {
                    write(gather());
                }
            }
        }, Console.WARNINGS);
    }

    /**
     * Writes the report at exit, after every part has stopped: after a periodic report in
     * progress, and as the last one.
     */
    void finalReport() {
        final Periodic running = periodic;
        if (running != null) {
            running.close();
        }
        synchronized (writing) {
            finished = true;
            if (wanted()) {
                write(gather(true, true));
            }
        }
    }

    /**
     * Gathers and renders a report once and drops it, so that the final report's code (some 200
     * classes) is loaded before the exit, on mech's thread: loaded at exit on a machine with more
     * busy threads than cores, it overran the stop's budget and 4 idle 3 s hosts of 4 lost their report.
     */
    void prepare() {
        if (!wanted()) {
            return;
        }
        final Report report = gather(false, false);
        TextReport.render(report);
        if (!options.get(Option.REPORT_JSON).isEmpty()) {
            JsonReport.render(report);
        }
    }

    private boolean wanted() {
        return options.get(Option.REPORT).to() != Destination.To.OFF || !options.get(Option.REPORT_JSON).isEmpty();
    }

    /**
     * The report as things stand: each part's rows of the hiccup and cause tables, its notes and
     * its section, each part in its own room.
     */
    Report gather() {
        return gather(true, false);
    }

    /**
     * @param counting whether a part whose report throws is counted: not when the report is only prepared
     * @param last     whether it is the final report, when /metrics has closed: it says where they were served
     */
    private Report gather(final boolean counting, final boolean last) {
        final List<HiccupSummary> summaries = new ArrayList<>(3);
        final List<CauseSummary> byCause = new ArrayList<>(Cause.values().length);
        final List<Section> sections = new ArrayList<>(parts.size());
        final List<String> notes = new ArrayList<>();
        Unmetered unmetered = Unmetered.NONE;
        final String metrics = System.getProperty(Mech.METRICS_PROPERTY);
        if (metrics != null) {
            notes.add((last ? "metrics were served at " : "metrics: ") + metrics);
        }
        for (final Part part : parts) {
            final List<HiccupSummary> itsSummaries;
            final List<CauseSummary> itsCauses;
            final List<String> itsNotes;
            final Section section;
            final Unmetered itsUnmetered;
            try {
                itsSummaries = part.hiccups();
                itsCauses = part.causes();
                itsUnmetered = part.unmetered();
                itsNotes = part.notes();
                section = part.section();
            } catch (final RuntimeException e) {
                if (counting) {
                    errors.failed("report " + part.name(), e);
                }
                notes.add("the " + part.name() + " section failed: " + e);
                continue;
            }
            summaries.addAll(itsSummaries);
            byCause.addAll(itsCauses);
            unmetered = itsUnmetered == Unmetered.NONE ? unmetered : itsUnmetered;
            notes.addAll(itsNotes);
            if (section != null) {
                sections.add(section);
            }
        }
        if (summaries.isEmpty()) {
            notes.add(0, withoutHiccups);
        }
        final String failed = errors.summary();
        final long outOfMemory = errors.outOfMemory();
        if (!failed.isEmpty() || outOfMemory > 0) {
            // under a full heap a failure may be counted before its component could be
            notes.add("internal errors: " + (failed.isEmpty() ? "" : failed + "; ") + (outOfMemory == 0 ? "none out of memory"
                : outOfMemory + " out of memory, while the host's heap was full: what mech could not do then, it did or tried again after"));
        }
        return new Report(Pid.current(), (System.nanoTime() - startNanos) / 1_000_000, summaries, byCause, unmetered, sections, notes);
    }

    /**
     * Writes the report where the options say. A file that cannot be written does not lose the
     * report: one line says why and the text goes to stderr instead, once.
     */
    private void write(final Report report) {
        final Destination destination = options.get(Option.REPORT);
        boolean onStderr = false;
        if (destination.to() == Destination.To.STDERR) {
            printToStderr(report);
            onStderr = true;
        } else if (destination.to() == Destination.To.FILE) {
            final String failure = writeFile(destination.path(), TextReport.render(report));
            if (failure != null) {
                Console.warn("cannot write report " + destination.path() + " (" + failure + "); it follows on stderr");
                printToStderr(report);
                onStderr = true;
            }
        }
        final String json = options.get(Option.REPORT_JSON);
        if (!json.isEmpty()) {
            final String failure = writeFile(json, JsonReport.render(report));
            if (failure != null && onStderr) {
                Console.warn("cannot write JSON report " + json + " (" + failure + "); the report is on stderr");
            } else if (failure != null) {
                Console.warn("cannot write JSON report " + json + " (" + failure + "); the report follows on stderr as text");
                printToStderr(report);
            }
        }
    }

    private static void printToStderr(final Report report) {
        System.err.print(TextReport.render(report));
        System.err.flush();
    }

    /**
     * Writes a report file, never through a symbolic link at its path (see {@link FileTarget});
     * returns why it could not be written, or null when it was.
     */
    private static String writeFile(final String path, final String content) {
        try (FileChannel channel = FileTarget.open(Path.of(path))) {
            channel.truncate(0);
            final ByteBuffer bytes = StandardCharsets.UTF_8.encode(content);
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            return null;
        } catch (final IOException | RuntimeException e) {
            return reason(e);
        }
    }

    /** Why a file could not be written, in a few words. */
    private static String reason(final Exception e) {
        if (e instanceof NoSuchFileException) {
            // The file itself would be created: it is a directory on the way that is missing.
            return "no such directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException && ((FileSystemException) e).getReason() != null) {
            return ((FileSystemException) e).getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
