package io.mech.hiccup;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;

/**
 * The kernel's own running totals of what kept the meter's thread from running: how long it
 * waited, runnable, for a core (the second field of its {@code schedstat}), the major faults it
 * took (its {@code stat}), and how long and how often the process's CPU cgroup was throttled
 * ({@code cpu.stat}, {@link CpuCgroup}). Opened by the meter thread itself, so that
 * {@code /proc/thread-self} is that thread.
 *
 * <p>A reading is three seeks and reads into one byte array and a parse of its digits: about 6 us,
 * no allocation. {@link RandomAccessFile} rather than a {@code FileChannel}: a channel's read
 * allocated now and then once compiled (816 bytes over 1,400 stalls in MeterAllocationTest),
 * a {@code RandomAccessFile}'s native read never does. The meter reads at each stall's end ({@link #stall}) and every
 * {@value #READ_EVERY_ROUNDS} rounds between ({@link #round}), so that a stall's figures count
 * from at most that many rounds before it.
 *
 * <p>Thread contract: the meter thread alone opens and reads; {@link #waitedNanos} alone is read by
 * other threads, through a volatile field the meter writes at each reading.
 */
public final class KernelFigures {

    /**
     * The meter reads the figures this often besides at each stall, 0.04% of a core at a 1 ms
     * resolution: the run-queue wait of the rounds before a stall in the window, which the
     * stall's figure cannot tell from its own, is at most theirs.
     */
    static final int READ_EVERY_ROUNDS = 16;

    /**
     * A stall's kernel evidence, after HotSpot's counters' ({@link VmCounters#width()} on): the
     * meter's run-queue wait within the stall, the cgroup's throttled time within it (each at
     * most the stall), the meter's major faults since the reading before it, and 1 where the
     * figures were read at all, 0 where the kernel keeps none.
     */
    public static final int RUN_QUEUE_EVIDENCE = 0;
    /** The cgroup's throttled time within the stall, ns. */
    public static final int THROTTLED_EVIDENCE = 1;
    /** The meter's major faults since the reading before the stall. */
    public static final int FAULTS_EVIDENCE = 2;
    /** 1 where the figures were read, 0 where the kernel keeps none. */
    public static final int READ_EVIDENCE = 3;
    /** How many evidence slots the kernel's figures add to a stall's. */
    public static final int EVIDENCE_WIDTH = 4;

    /** A reading's slots: run-queue wait in ns, major faults, throttled ns, throttlings. */
    static final int RUN_DELAY = 0;
    static final int MAJOR_FAULTS = 1;
    static final int THROTTLED_NANOS = 2;
    static final int THROTTLINGS = 3;
    static final int WIDTH = 4;

    /** The meter thread's stat: majflt, its twelfth field, is the tenth after the command's closing parenthesis. */
    private static final int MAJFLT_AFTER_COMMAND = 9;

    private final RandomAccessFile schedstat;
    private final RandomAccessFile stat;
    private final RandomAccessFile cpuStat;
    private final byte[] buffer = new byte[4096];
    /** How many bytes of {@link #buffer} the last read filled. */
    private int filled;
    /** The run-queue wait when the meter began. */
    private long begun;
    /** The figures at the last reading, and at this one. */
    private final long[] atRead = new long[WIDTH];
    private final long[] now = new long[WIDTH];
    private int roundsSinceRead;
    /** The run-queue wait since the meter began, at the last reading: written by the meter thread, read by scrapes. */
    private volatile long waited;

    private KernelFigures(final RandomAccessFile schedstat, final RandomAccessFile stat, final RandomAccessFile cpuStat) {
        this.schedstat = schedstat;
        this.stat = stat;
        this.cpuStat = cpuStat;
    }

    /**
     * The figures of the calling thread and its cgroup.
     *
     * @return null where the kernel keeps no run-queue figure for threads (not Linux, or no schedstat)
     */
    static KernelFigures openForThisThread(final CpuCgroup cgroup) {
        final RandomAccessFile schedstat = open(Path.of("/proc/thread-self/schedstat"));
        if (schedstat == null) {
            return null;
        }
        final KernelFigures figures = new KernelFigures(schedstat, open(Path.of("/proc/thread-self/stat")),
            cgroup == null ? null : open(cgroup.cpuStat()));
        figures.read(figures.atRead);
        figures.begun = figures.atRead[RUN_DELAY];
        return figures;
    }

    /** Counts a round that was no stall, reading the figures every {@link #READ_EVERY_ROUNDS}. */
    void round() {
        if (++roundsSinceRead >= READ_EVERY_ROUNDS) {
            read(atRead);
            roundsSinceRead = 0;
            waited = atRead[RUN_DELAY] - begun;
        }
    }

    /** The meter's run-queue wait since it began, as of the last reading; any thread. */
    long waitedNanos() {
        return waited;
    }

    /**
     * A stall's evidence, as {@link #RUN_QUEUE_EVIDENCE} and on describe it, from the figures'
     * moves since the last reading, each at most the stall. The window holds up to
     * {@link #READ_EVERY_ROUNDS} rounds before the stall, whose run-queue wait counts as the
     * stall's: on a busy machine a little of it, never enough to hide a stop of the process,
     * which does not wait in the run queue at all.
     */
    void stall(final long lengthNanos, final long[] into, final int at) {
        System.arraycopy(atRead, 0, now, 0, WIDTH);
        read(now);
        into[at + RUN_QUEUE_EVIDENCE] = Math.max(0, Math.min(now[RUN_DELAY] - atRead[RUN_DELAY], lengthNanos));
        into[at + THROTTLED_EVIDENCE] = now[THROTTLINGS] > atRead[THROTTLINGS]
            ? Math.max(0, Math.min(now[THROTTLED_NANOS] - atRead[THROTTLED_NANOS], lengthNanos)) : 0;
        into[at + FAULTS_EVIDENCE] = now[MAJOR_FAULTS] - atRead[MAJOR_FAULTS];
        into[at + READ_EVIDENCE] = 1;
        System.arraycopy(now, 0, atRead, 0, WIDTH);
        roundsSinceRead = 0;
        waited = atRead[RUN_DELAY] - begun;
    }

    private static RandomAccessFile open(final Path file) {
        try {
            return new RandomAccessFile(file.toFile(), "r");
        } catch (final IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Reads every figure into {@code into} at {@link #RUN_DELAY} and on. A figure that cannot be
     * read keeps what {@code into} held, so that it moves by nothing: a zero would make the next
     * difference the total since boot. Allocates nothing.
     */
    private void read(final long[] into) {
        if (fill(schedstat)) {
            into[RUN_DELAY] = field(0, 1);
        }
        if (fill(stat)) {
            into[MAJOR_FAULTS] = field(afterCommand(), MAJFLT_AFTER_COMMAND);
        }
        if (fill(cpuStat)) {
            final long throttlings = value("nr_throttled ");
            final long micros = value("throttled_usec ");
            final long nanos = micros >= 0 ? micros * 1_000 : value("throttled_time ");
            if (throttlings >= 0 && nanos >= 0) {
                into[THROTTLINGS] = throttlings;
                into[THROTTLED_NANOS] = nanos;
            }
        }
    }

    /** Closes the files; the meter thread, as it ends. */
    void close() {
        close(schedstat);
        close(stat);
        close(cpuStat);
    }

    private static void close(final RandomAccessFile file) {
        try {
            if (file != null) {
                file.close();
            }
        } catch (final IOException ignored) {
            // read-only files of /proc and /sys: nothing to lose
        }
    }

    private boolean fill(final RandomAccessFile file) {
        filled = 0;
        if (file == null) {
            return false;
        }
        try {
            file.seek(0);
            filled = Math.max(0, file.read(buffer, 0, buffer.length));
            return filled > 0;
        } catch (final IOException e) {
            return false;
        }
    }

    private int afterCommand() {
        int at = filled - 1;
        while (at > 0 && buffer[at] != ')') {
            at--;
        }
        return at + 1;
    }

    /** The {@code n}th whitespace-separated number from {@code from}, counting from 0; 0 where there is none. */
    private long field(final int from, final int n) {
        int at = from;
        final int end = filled;
        for (int i = 0; i < n; i++) {
            while (at < end && buffer[at] == ' ') {
                at++;
            }
            while (at < end && buffer[at] != ' ' && buffer[at] != '\n') {
                at++;
            }
        }
        while (at < end && buffer[at] == ' ') {
            at++;
        }
        return number(at, end);
    }

    /** The number after {@code key} at a line's start; -1 where no line has the key. */
    private long value(final String key) {
        final int end = filled;
        int line = 0;
        while (line < end) {
            if (startsWith(line, key, end)) {
                return number(line + key.length(), end);
            }
            while (line < end && buffer[line] != '\n') {
                line++;
            }
            line++;
        }
        return -1;
    }

    private boolean startsWith(final int at, final String key, final int end) {
        if (at + key.length() > end) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            if (buffer[at + i] != key.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private long number(final int from, final int end) {
        long value = 0;
        for (int at = from; at < end; at++) {
            final byte b = buffer[at];
            if (b < '0' || b > '9') {
                break;
            }
            value = value * 10 + (b - '0');
        }
        return value;
    }
}
