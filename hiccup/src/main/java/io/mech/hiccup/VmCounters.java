package io.mech.hiccup;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * HotSpot's own running totals of its stops, read from the JVM's performance data, the memory
 * that {@code jcmd <pid> PerfCounter.print} and jstat read: the safepoints
 * ({@code sun.rt.safepoints}), the time spent at them ({@code sun.rt.safepointTime}, after every
 * thread arrived), the time spent waiting for threads to arrive ({@code sun.rt.safepointSyncTime},
 * the time to safepoint) and each collector's pause time ({@code sun.gc.collector.N.time}). The
 * JVM keeps them from its first instruction, on 17, 21 and 25 and under every collector, so they
 * explain a stall from the first interval on, where JFR starts late.
 *
 * <p>The memory is the JVM's own, mapped once: {@link #read} is a handful of plain loads at
 * offsets found at open, so the meter can afford one read per wake-up and allocates nothing.
 * Where the JVM keeps no such data ({@code -XX:-UsePerfData}) {@link #open} returns null.
 *
 * <p>Thread contract: the offsets are fixed at open; {@link #read} may be called from any thread,
 * and the meter thread is the one that does. The JVM writes each counter with one aligned 64-bit
 * store, so a read sees a whole value. The tick length is found at open or, where HotSpot has not
 * yet made {@code sun.os.hrt.frequency} (it does after the agents' premain, and a JVM starting
 * JFR from its command line reaches mech's start before that), at a later {@link #nanos}, which
 * publishes it through a volatile field.
 */
public final class VmCounters {

    /** The reading's slots: safepoints, time at safepoints, time to safepoint, then each collector's pause time. */
    public static final int SAFEPOINTS = 0;
    /** Ticks at safepoints once every thread arrived, collections included. */
    public static final int SAFEPOINT_TICKS = 1;
    /** Ticks spent waiting for threads to reach safepoints. */
    public static final int SYNC_TICKS = 2;
    /** The first collector's pause ticks; collector i is at {@code FIRST_COLLECTOR + i}. */
    public static final int FIRST_COLLECTOR = 3;

    /** Where {@link #parse} notes {@code sun.rt.createVmBeginTime}'s offset, after the three safepoint counters'. */
    private static final int VM_BEGIN = 3;

    /** The PerfData prologue's magic number, always stored big-endian. */
    private static final int MAGIC = 0xcafec0c0;
    private static final int BYTE_ORDER = 4;
    private static final int ENTRY_OFFSET = 24;
    private static final int NUM_ENTRIES = 28;
    private static final byte LONG = 'J';
    /** {@code sun.os.hrt.frequency} as its bytes, ended as HotSpot ends names. */
    private static final byte[] FREQUENCY = "sun.os.hrt.frequency\0".getBytes(StandardCharsets.US_ASCII);

    private final ByteBuffer data;
    private final int[] offsets;
    /** Each collector's {@code sun.gc.collector.N.invocations}, read once, when the meter begins; -1 where the JVM keeps none. */
    private final int[] invocations;
    /** {@code sun.rt.createVmBeginTime}, the JVM's start in milliseconds since the epoch; -1 where the JVM keeps none. */
    private final int vmBegin;
    private final List<String> collectors;
    /** The command line HotSpot names its JVM by ({@code sun.rt.javaCommand}); null where it has not named it. */
    private final String javaCommand;
    /** Nanoseconds per tick; 0 until HotSpot publishes its tick frequency. */
    private volatile double nanosPerTick;

    private VmCounters(final ByteBuffer data, final int[] offsets, final int[] invocations, final int vmBegin,
                       final List<String> collectors, final String javaCommand, final double nanosPerTick) {
        this.data = data;
        this.javaCommand = javaCommand;
        this.offsets = offsets;
        this.invocations = invocations;
        this.vmBegin = vmBegin;
        this.collectors = List.copyOf(collectors);
        this.nanosPerTick = nanosPerTick;
    }

    /**
     * This JVM's counters: through {@code jdk.internal.perf.Perf} when {@code java.base} exports
     * it to mech (the agent asks for that before it starts the recorder), else through the file
     * {@code /tmp/hsperfdata_<user>/<pid>} that the JVM shares them in.
     *
     * @return the counters, or null when this JVM keeps none that mech can read
     */
    public static VmCounters open() {
        ByteBuffer data = ownPerfData();
        if (data == null) {
            data = sharedFile();
        }
        try {
            return data == null ? null : parse(data);
        } catch (final RuntimeException e) {
            // A layout this reader does not know: no counters, rather than no recorder.
            return null;
        }
    }

    /**
     * This JVM's counters through the file HotSpot shares them in alone: where it exists, this
     * spares the agent asking {@code java.base} to export {@code jdk.internal.perf}, which costs
     * premain milliseconds of the JDK's own lambdas. The file maps the same memory HotSpot writes.
     *
     * @return the counters, or null when there is no such file (then {@link #open()})
     */
    public static VmCounters openShared() {
        final ByteBuffer data = sharedFile();
        try {
            final VmCounters counters = data == null ? null : parse(data);
            // found by user and pid alone: in a /tmp that containers share, another container's JVM with this pid may write it
            return counters != null && counters.namedBy(System.getProperty("sun.java.command")) ? counters : null;
        } catch (final RuntimeException e) {
            return null;
        }
    }

    /**
     * Whether these counters may be this JVM's, whose command line {@code sun.java.command} gives:
     * HotSpot keeps at most {@code PerfMaxStringConstLength} bytes of it, and names its JVM only
     * after the agents' premain, so a file that names none yet is a JVM as young as this one.
     */
    boolean namedBy(final String command) {
        return javaCommand == null || (command == null ? "" : command).startsWith(javaCommand);
    }

    /** The JVM's performance data through {@code jdk.internal.perf.Perf}; null when not exported to mech. */
    private static ByteBuffer ownPerfData() {
        try {
            final Class<?> perf = Class.forName("jdk.internal.perf.Perf");
            final Object instance = perf.getMethod("getPerf").invoke(null);
            Method attach;
            try {
                attach = perf.getMethod("attach", int.class);
                return (ByteBuffer) attach.invoke(instance, 0);
            } catch (final NoSuchMethodException e) {
                // JDK 17 names the access mode; 21 and later attach read-only
                attach = perf.getMethod("attach", int.class, String.class);
                return (ByteBuffer) attach.invoke(instance, 0, "r");
            }
        } catch (final ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** The file HotSpot shares its performance data in; null when it keeps none there. */
    private static ByteBuffer sharedFile() {
        final Path file = Path.of("/tmp", "hsperfdata_" + System.getProperty("user.name"), Long.toString(Pid.current()));
        if (!Files.isReadable(file)) {
            return null;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
        } catch (final IOException | RuntimeException e) {
            return null;
        }
    }

    /** Finds the counters in a PerfData buffer; null when it is not one or lacks the safepoint counters. */
    static VmCounters parse(final ByteBuffer buffer) {
        final ByteBuffer data = buffer.duplicate();
        if (data.capacity() < 32 || data.order(ByteOrder.BIG_ENDIAN).getInt(0) != MAGIC) {
            return null;
        }
        data.order(data.get(BYTE_ORDER) == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        final List<Integer> collectorTime = new ArrayList<>();
        final List<Integer> collectorCount = new ArrayList<>();
        final List<Integer> countIndex = new ArrayList<>();
        final List<String> collectorName = new ArrayList<>();
        final List<Integer> collectorIndex = new ArrayList<>();
        final List<Integer> nameIndex = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        final int[] found = {-1, -1, -1, -1};
        long frequency = 0;
        String javaCommand = null;
        // one walk for every entry wanted
        final Entries entries = new Entries(data);
        while (entries.next()) {
            final String name = entries.name();
            final int value = entries.value;
            if (entries.type == LONG && entries.vector == 0) {
                switch (name) {
                    case "sun.rt.safepoints" -> found[SAFEPOINTS] = value;
                    case "sun.rt.safepointTime" -> found[SAFEPOINT_TICKS] = value;
                    case "sun.rt.safepointSyncTime" -> found[SYNC_TICKS] = value;
                    case "sun.rt.createVmBeginTime" -> found[VM_BEGIN] = aLong(data, value) ? value : -1;
                    case "sun.os.hrt.frequency" -> frequency = aLong(data, value) ? data.getLong(value) : 0;
                    default -> {
                        if (name.startsWith("sun.gc.collector.") && name.endsWith(".time") && aLong(data, value)) {
                            collectorTime.add(value);
                            collectorIndex.add(collectorIndex(name));
                        } else if (name.startsWith("sun.gc.collector.") && name.endsWith(".invocations") && aLong(data, value)) {
                            collectorCount.add(value);
                            countIndex.add(collectorIndex(name));
                        }
                    }
                }
            } else if (entries.vector > 0 && name.equals("sun.rt.javaCommand")) {
                javaCommand = cString(data, value, value + entries.vector);
            } else if (entries.vector > 0 && name.startsWith("sun.gc.collector.") && name.endsWith(".name")) {
                names.add(cString(data, value, value + entries.vector));
                nameIndex.add(collectorIndex(name));
            }
        }
        final int safepoints = found[SAFEPOINTS];
        final int safepointTicks = found[SAFEPOINT_TICKS];
        final int syncTicks = found[SYNC_TICKS];
        if (safepoints < 0 || safepointTicks < 0 || syncTicks < 0) {
            return null;
        }
        for (final int value : List.of(safepoints, safepointTicks, syncTicks)) {
            if (!aLong(data, value)) {
                return null;
            }
        }
        final int[] offsets = new int[FIRST_COLLECTOR + collectorTime.size()];
        final int[] invocations = new int[collectorTime.size()];
        offsets[SAFEPOINTS] = safepoints;
        offsets[SAFEPOINT_TICKS] = safepointTicks;
        offsets[SYNC_TICKS] = syncTicks;
        for (int c = 0; c < collectorTime.size(); c++) {
            offsets[FIRST_COLLECTOR + c] = collectorTime.get(c);
            final int counted = countIndex.indexOf(collectorIndex.get(c));
            invocations[c] = counted < 0 ? -1 : collectorCount.get(counted);
            final int at = nameIndex.indexOf(collectorIndex.get(c));
            collectorName.add(at < 0 ? "collector " + collectorIndex.get(c) : names.get(at));
        }
        // HotSpot's tick frequency: 0 while the JVM has not made it
        return new VmCounters(data, offsets, invocations, found[VM_BEGIN], collectorName, javaCommand, frequency > 0 ? 1e9 / frequency : 0);
    }

    /**
     * HotSpot's tick frequency, {@code sun.os.hrt.frequency}; 0 while the JVM has not made it. Its
     * name is compared where it lies, not decoded: until HotSpot makes it (after premain) every
     * conversion looks again, from whichever thread converts, in whatever heap the host left.
     */
    private static long frequency(final ByteBuffer data) {
        final Entries entries = new Entries(data);
        while (entries.next()) {
            if (entries.type == LONG && entries.vector == 0 && aLong(data, entries.value) && entries.named(FREQUENCY)) {
                return data.getLong(entries.value);
            }
        }
        return 0;
    }

    /**
     * A cursor over the well-formed PerfData entries, in the data's order, that stops at a
     * malformed one. It decodes only the names under {@link #SUN} and {@link #WANTED}: the agent opens the counters
     * in premain, on the host's start path, where decoding each of some 800 names byte by byte in
     * the interpreter cost milliseconds. A loop rather than a visitor lambda, for the same reason.
     */
    private static final class Entries {
        /** What every name mech reads begins with, as bytes; most of the JVM's other names fail here, on their first bytes. */
        private static final byte[] SUN = "sun.".getBytes(StandardCharsets.US_ASCII);
        /** The name prefixes of every entry mech reads after {@link #SUN}, as bytes. */
        private static final byte[][] WANTED = {
            "rt.".getBytes(StandardCharsets.US_ASCII),
            "gc.collector.".getBytes(StandardCharsets.US_ASCII),
            "os.hrt.".getBytes(StandardCharsets.US_ASCII)};

        private final ByteBuffer data;
        private final int count;
        private int index;
        private int entry;
        /** Where the current entry's name begins. */
        private int nameAt;
        /** The current entry: its vector length (0 for a scalar), its type and its value's offset. */
        int vector;
        byte type;
        int value;

        Entries(final ByteBuffer data) {
            this.data = data;
            this.count = data.getInt(NUM_ENTRIES);
            this.entry = data.getInt(ENTRY_OFFSET);
        }

        /** Moves to the next entry whose name mech reads; false at the end or at a malformed entry. */
        boolean next() {
            while (index < count && entry > 0 && entry + 20 <= data.capacity()) {
                final int at = entry;
                final int length = data.getInt(at);
                final int nameAt = at + data.getInt(at + 4);
                if (length <= 0 || nameAt < 0 || nameAt >= data.capacity()) {
                    return false;
                }
                index++;
                entry += length;
                if (wanted(nameAt)) {
                    this.nameAt = nameAt;
                    vector = data.getInt(at + 8);
                    type = data.get(at + 12);
                    value = at + data.getInt(at + 16);
                    return true;
                }
            }
            return false;
        }

        /** The current entry's name, decoded. */
        String name() {
            return cString(data, nameAt, data.capacity());
        }

        /** Whether the current entry's name is this one, given with its ending zero; compared in place, allocating nothing. */
        boolean named(final byte[] name) {
            return startsWith(nameAt, name);
        }

        private boolean wanted(final int nameAt) {
            if (!startsWith(nameAt, SUN)) {
                return false;
            }
            for (final byte[] prefix : WANTED) {
                if (startsWith(nameAt + SUN.length, prefix)) {
                    return true;
                }
            }
            return false;
        }

        private boolean startsWith(final int nameAt, final byte[] prefix) {
            if (nameAt + prefix.length > data.capacity()) {
                return false;
            }
            for (int i = 0; i < prefix.length; i++) {
                if (data.get(nameAt + i) != prefix[i]) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Whether a whole, aligned long lies at this offset: the meter reads it a thousand times a second. */
    private static boolean aLong(final ByteBuffer data, final int offset) {
        return offset >= 0 && offset <= data.capacity() - Long.BYTES && offset % Long.BYTES == 0;
    }

    private static int collectorIndex(final String name) {
        final String rest = name.substring("sun.gc.collector.".length());
        try {
            return Integer.parseInt(rest.substring(0, rest.indexOf('.')));
        } catch (final NumberFormatException e) {
            return -1;
        }
    }

    private static String cString(final ByteBuffer data, final int from, final int limit) {
        int end = from;
        while (end < limit && end < data.capacity() && data.get(end) != 0) {
            end++;
        }
        final byte[] bytes = new byte[end - from];
        data.get(from, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** How many slots a reading has: {@link #FIRST_COLLECTOR} plus one per collector. */
    public int width() {
        return offsets.length;
    }

    /** The collectors' names as HotSpot gives them ("G1 young collection pauses"), in slot order from {@link #FIRST_COLLECTOR}. */
    public List<String> collectors() {
        return collectors;
    }

    /**
     * Reads every counter into {@code into} from {@code at}, in slot order; allocates nothing.
     *
     * @param into a reading's array, with {@link #width()} slots from {@code at}
     * @param at   the first slot
     */
    public void read(final long[] into, final int at) {
        for (int i = 0; i < offsets.length; i++) {
            into[at + i] = data.getLong(offsets[i]);
        }
    }

    /** How many safepoints have begun: {@link #SAFEPOINTS}'s slot alone, one load. */
    public long safepoints() {
        return data.getLong(offsets[SAFEPOINTS]);
    }

    /** Ticks the VM has held every Java thread so far: waiting for them to reach safepoints, and at them; two loads. */
    public long stoppedTicks() {
        return data.getLong(offsets[SAFEPOINT_TICKS]) + data.getLong(offsets[SYNC_TICKS]);
    }

    /** The collections every collector has made so far; read once, when the meter begins, not on its rounds. */
    public long collections() {
        long sum = 0;
        for (final int at : invocations) {
            sum += at < 0 ? 0 : data.getLong(at);
        }
        return sum;
    }

    /** When the JVM began, in milliseconds since the epoch ({@code sun.rt.createVmBeginTime}); -1 where it keeps no such counter. */
    public long vmBeginMillis() {
        return vmBegin < 0 ? -1 : data.getLong(vmBegin);
    }

    /** Converts a difference of tick counters to nanoseconds. */
    public long nanos(final long ticks) {
        double perTick = nanosPerTick;
        if (perTick == 0) {
            long frequency;
            try {
                frequency = frequency(data);
            } catch (final OutOfMemoryError full) {
                // a meter started before main reads its counters from a heap the host may have filled since
                frequency = 0;
            }
            if (frequency <= 0) {
                // Still starting: HotSpot on Linux counts in nanoseconds, which it will then publish.
                return ticks;
            }
            perTick = 1e9 / frequency;
            nanosPerTick = perTick;
        }
        return (long) (ticks * perTick);
    }

    @Override
    public String toString() {
        return "HotSpot counters: safepoints, time at and to them, " + collectors;
    }
}
