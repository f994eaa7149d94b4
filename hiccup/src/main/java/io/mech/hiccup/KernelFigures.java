package io.mech.hiccup;

import java.nio.file.Path;

/**
 * The kernel's own running totals of what kept the meter's thread from running: how long it
 * waited, runnable, for a core (the second field of its {@code schedstat}), the major faults it
 * took (its {@code stat}), and how long and how often the process's CPU cgroup was throttled
 * ({@code cpu.stat}, {@link CpuCgroup}). Opened by the meter thread itself, so that
 * {@code /proc/thread-self} is that thread.
 *
 * <p>A reading is three seeks and reads ({@link ProcFile}) and a parse of their digits: about
 * 6 us, no allocation. The meter reads at each stall's end ({@link #stall}) and every
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

    private final ProcFile schedstat;
    private final ProcFile stat;
    private final ProcFile cpuStat;
    /** The cgroup's periods, throttlings and throttled ns as last read. */
    private final long[] throttling = new long[3];
    /** The run-queue wait when the meter began. */
    private long begun;
    /** The figures at the last reading, and at this one. */
    private final long[] atRead = new long[WIDTH];
    private final long[] now = new long[WIDTH];
    private int roundsSinceRead;
    /** The run-queue wait since the meter began, at the last reading: written by the meter thread, read by scrapes. */
    private volatile long waited;

    private KernelFigures(final ProcFile schedstat, final ProcFile stat, final ProcFile cpuStat) {
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
        final ProcFile schedstat = ProcFile.open(Path.of("/proc/thread-self/schedstat"));
        if (schedstat == null) {
            return null;
        }
        final KernelFigures figures = new KernelFigures(schedstat, ProcFile.open(Path.of("/proc/thread-self/stat")),
            cgroup == null ? null : ProcFile.open(cgroup.cpuStat()));
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

    /**
     * Reads every figure into {@code into} at {@link #RUN_DELAY} and on. A figure that cannot be
     * read keeps what {@code into} held, so that it moves by nothing: a zero would make the next
     * difference the total since boot. Allocates nothing.
     */
    private void read(final long[] into) {
        if (schedstat.read()) {
            into[RUN_DELAY] = schedstat.field(0, 1);
        }
        if (stat != null && stat.read()) {
            into[MAJOR_FAULTS] = stat.field(stat.after(')'), MAJFLT_AFTER_COMMAND);
        }
        if (cpuStat != null && cpuStat.read() && cpuStat.throttling(throttling, 0)) {
            into[THROTTLINGS] = throttling[1];
            into[THROTTLED_NANOS] = throttling[2];
        }
    }

    /** Closes the files; the meter thread, as it ends. */
    void close() {
        schedstat.close();
        if (stat != null) {
            stat.close();
        }
        if (cpuStat != null) {
            cpuStat.close();
        }
    }
}
