package io.mech.replay;

import io.mech.report.Durations;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The parsed command line of {@code replay}; every check names the option and the bound. */
final class ReplayOptions {

    /** Output format of the report on standard output. */
    enum Format { TEXT, CSV, JSON }

    static final String USAGE = String.join("\n",
        "usage: java -jar mech.jar replay [options] <log|dir|'glob'>...   (- reads standard input)",
        "Replays HdrHistogram interval logs (mech's, jHiccup's; plain or gzip) into one percentile",
        "distribution, identical to HistogramLogProcessor's .hgrm, a summary and stall time by cause",
        "(the logs' tags). Several logs are aligned on absolute time and merged in one pass, in memory",
        "that does not grow with their number. A directory stands for its *.hlog and *.hlog.gz files;",
        "a control JVM's log <log>.c, named or found beside <log>, is drawn beside its stalls.",
        "  --start <t>, --end <t>      window: seconds from the log's start (the earliest start with",
        "                              several logs), or an ISO-8601 time such as 2025-01-31T03:00:00Z",
        "  --tag <t>                   only lines tagged t (default: untagged lines only)",
        "  --all-tags                  every line, tagged or not",
        "  --recursive                 directories include their subdirectories' logs",
        "  --per-file                  each log's figures beside the merged ones; past 10 logs, the",
        "                              hosts ranked by p99 and max (top and bottom 10) and drawn as a band",
        "  --format text|csv|json      report format (default text)",
        "  --unit-ratio <r>            divide values by r for output (default 1000000: ns to ms)",
        "  --ticks <n>                 percentile ticks per half-distance (default 5)",
        "  --intervals                 add the interval table (one row per interval or time bucket)",
        "  --csv-table <t>             CSV of one table: distribution, summary, worst, causes, control, hosts,",
        "                              intervals or moving (with --moving-window)",
        "  --moving-window <d>         add a moving-window percentile over this duration, e.g. 60s",
        "  --moving-percentile <p>     the percentile of --moving-window (default 99)",
        "  --correct <d>               correct for coordinated omission with this expected interval, e.g. 1ms",
        "  --stall <d>                 intervals whose max reaches this count as stalled (default 2ms)",
        "  --worst <n>                 how many worst intervals to list (default 5)",
        "  --html <file>               write the charts as one self-contained HTML page",
        "  --svg <file>                write the same charts as SVG",
        "  --openmetrics <file>        write every interval as OpenMetrics samples, for promtool backfill",
        "  -o <prefix>                 also write the distribution to <prefix>.hgrm, as HistogramLogProcessor",
        "  --list-tags                 list the logs' tags, with their line counts, and report nothing else",
        "  --lenient                   skip damaged lines (counted in the report) instead of failing",
        "  --help                      this text",
        "HistogramLogProcessor's spellings are taken too: -i <log>, -tag, -start, -end, -allTags, -csv,",
        "-listtags, -outputValueUnitRatio, -percentilesOutputTicksPerHalf.",
        "Durations need a unit: ns, us, ms, s, m or h. Exit: 0 ok, 1 damaged or unreadable input,",
        "2 usage error, 3 no interval selected (the line says what the logs have).",
        "");

    final List<String> inputs = new ArrayList<>();
    TimeBound start = TimeBound.relative(0.0);
    TimeBound end = TimeBound.relative(Double.MAX_VALUE);
    String tag;
    boolean allTags;
    boolean perFile;
    boolean recursive;
    Format format = Format.TEXT;
    /** The one table CSV output holds, or null for every table. */
    CsvReport.Table csvTable;
    double unitRatio = 1_000_000.0;
    int ticks = 5;
    boolean intervals;
    long movingWindowNanos;
    double movingPercentile = 99.0;
    long correctionInterval;
    long stallThreshold = 2_000_000L;
    int worst = 5;
    String html;
    String svg;
    String openMetrics;
    boolean lenient;
    boolean help;
    boolean listTags;
    /** Where to write {@code .hgrm}, without the suffix; null for nowhere. */
    String outputPrefix;

    /** A window bound: seconds relative to the start, or seconds since the epoch. */
    record TimeBound(double seconds, boolean absolute) {
        static TimeBound relative(final double seconds) {
            return new TimeBound(seconds, false);
        }
    }

    /** A command line the options do not accept; the message says which option and why. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(final String message) {
            super(message, null, false, false);
        }
    }

    private ReplayOptions() {
    }

    static ReplayOptions parse(final String[] args) throws UsageException {
        final ReplayOptions o = new ReplayOptions();
        boolean onlyInputs = false;
        for (int i = 0; i < args.length; i++) {
            final String arg = args[i];
            if (onlyInputs || arg.equals("-") || !arg.startsWith("-")) {
                o.inputs.add(arg);
                continue;
            }
            switch (arg) {
                case "--" -> onlyInputs = true;
                case "--help", "-h" -> o.help = true;
                case "--all-tags", "-allTags" -> o.allTags = true;
                case "--list-tags", "-listtags" -> o.listTags = true;
                case "-o" -> o.outputPrefix = value(args, ++i, arg);
                case "-i" -> o.inputs.add(value(args, ++i, arg));
                case "-csv" -> o.format = Format.CSV;
                case "--per-file" -> o.perFile = true;
                case "--recursive" -> o.recursive = true;
                case "--intervals" -> o.intervals = true;
                case "--lenient" -> o.lenient = true;
                case "--start", "-start" -> o.start = time(arg, value(args, ++i, arg));
                case "--end", "-end" -> o.end = time(arg, value(args, ++i, arg));
                case "--tag", "-tag" -> o.tag = tag(value(args, ++i, arg));
                case "--format" -> o.format = format(value(args, ++i, arg));
                case "--csv-table" -> o.csvTable = csvTable(value(args, ++i, arg));
                case "--unit-ratio", "-outputValueUnitRatio" -> o.unitRatio = positive(arg, value(args, ++i, arg));
                case "--ticks", "-percentilesOutputTicksPerHalf" -> o.ticks = (int) whole(arg, value(args, ++i, arg), 1, 1000);
                case "--moving-window" -> o.movingWindowNanos = duration(arg, value(args, ++i, arg), 1_000_000L);
                case "--moving-percentile" -> o.movingPercentile = percentile(arg, value(args, ++i, arg));
                case "--correct" -> o.correctionInterval = duration(arg, value(args, ++i, arg), 1);
                case "--stall" -> o.stallThreshold = duration(arg, value(args, ++i, arg), 1);
                case "--worst" -> o.worst = (int) whole(arg, value(args, ++i, arg), 0, 1000);
                case "--html" -> o.html = value(args, ++i, arg);
                case "--svg" -> o.svg = value(args, ++i, arg);
                case "--openmetrics" -> o.openMetrics = value(args, ++i, arg);
                default -> throw new UsageException("unknown option " + arg);
            }
        }
        if (o.help) {
            return o;
        }
        if (o.inputs.isEmpty()) {
            throw new UsageException("no log given");
        }
        if (o.inputs.stream().filter("-"::equals).count() > 1) {
            throw new UsageException("standard input (-) can be read only once");
        }
        if (o.csvTable != null) {
            if (o.format == Format.JSON) {
                throw new UsageException("--csv-table writes CSV; it excludes --format json");
            }
            if (o.csvTable == CsvReport.Table.MOVING && o.movingWindowNanos == 0) {
                throw new UsageException("--csv-table moving needs --moving-window");
            }
            o.format = Format.CSV;
            o.intervals |= o.csvTable == CsvReport.Table.INTERVALS;
        }
        if (o.tag != null && o.allTags) {
            throw new UsageException("--tag and --all-tags exclude each other");
        }
        if (o.start.absolute() == o.end.absolute() && o.start.seconds() > o.end.seconds()) {
            throw new UsageException("--start must not be after --end");
        }
        return o;
    }

    private static String value(final String[] args, final int i, final String option) throws UsageException {
        if (i >= args.length) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }

    /**
     * A window's bound: a duration from the logs' start, such as {@code 30s} or {@code 2m}, or an
     * ISO-8601 time with offset. HistogramLogProcessor's {@code -start} and {@code -end} take bare
     * seconds, as there; mech's own spellings want a unit, like every other duration.
     */
    private static TimeBound time(final String option, final String text) throws UsageException {
        try {
            final OffsetDateTime when = OffsetDateTime.parse(text);
            return new TimeBound(when.toEpochSecond() + when.getNano() / 1e9, true);
        } catch (final DateTimeParseException notATime) {
            // a duration from the logs' start
        }
        if (!option.startsWith("--")) {
            final double seconds = seconds(text);
            if (seconds >= 0 && Double.isFinite(seconds)) {
                return TimeBound.relative(seconds);
            }
            throw new UsageException(option + " takes seconds (>= 0) or an ISO-8601 time with offset, got '" + text + "'");
        }
        if (!Double.isNaN(seconds(text))) {
            throw new UsageException(option + " needs a unit, such as " + text + "s (" + Durations.UNITS + "), or an ISO-8601 time"
                + " with offset; got '" + text + "'");
        }
        return TimeBound.relative(duration(option, text, 0) / 1e9);
    }

    /** @return the text as a number, or NaN when it is not one */
    private static double seconds(final String text) {
        try {
            return Double.parseDouble(text);
        } catch (final NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static String tag(final String text) throws UsageException {
        if (text.isEmpty() || text.chars().anyMatch(c -> c == ',' || c == ' ' || c == '\n' || c == '\r' || c == '\t')) {
            throw new UsageException("--tag must be non-empty without spaces, commas or line breaks, got '" + text + "'");
        }
        return text;
    }

    private static CsvReport.Table csvTable(final String text) throws UsageException {
        try {
            return CsvReport.Table.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new UsageException("--csv-table takes distribution, summary, worst, causes, control, hosts, intervals or moving, got '"
                + text + "'");
        }
    }

    private static Format format(final String text) throws UsageException {
        try {
            return Format.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new UsageException("--format takes text, csv or json, got '" + text + "'");
        }
    }

    private static double positive(final String option, final String text) throws UsageException {
        try {
            final double value = Double.parseDouble(text);
            if (value > 0 && Double.isFinite(value)) {
                return value;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw new UsageException(option + " takes a number > 0, got '" + text + "'");
    }

    private static double percentile(final String option, final String text) throws UsageException {
        try {
            final double value = Double.parseDouble(text);
            if (value >= 0 && value <= 100) {
                return value;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw new UsageException(option + " takes a percentile between 0 and 100, got '" + text + "'");
    }

    private static long whole(final String option, final String text, final long min, final long max) throws UsageException {
        try {
            final long value = Long.parseLong(text);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw new UsageException(option + " takes a whole number from " + min + " to " + max + ", got '" + text + "'");
    }

    /**
     * A duration in ns, in the agent's grammar ({@link Durations}): a number with ns, us, ms, s, m
     * or h; at least {@code min} ns. A bare number is refused: {@code --stall 2} would be 2 ns,
     * which nobody means.
     */
    static long duration(final String option, final String text, final long min) throws UsageException {
        final long nanos;
        try {
            nanos = Durations.parseNanos(text);
        } catch (final IllegalArgumentException e) {
            throw new UsageException(option + ": " + e.getMessage() + "; got '" + text + "'");
        }
        if (nanos < min) {
            throw new UsageException(option + " takes a duration of at least " + min + "ns, such as 500us, 2ms or 1s, got '" + text + "'");
        }
        return nanos;
    }
}
