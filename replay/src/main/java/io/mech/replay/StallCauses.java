package io.mech.replay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Why the JVMs stalled, from the tagged lines of their logs: mech writes, beside each interval's
 * hiccups, one line per cause ({@code gc}, {@code safepoint}, {@code ttsp}, {@code mech}, {@code os}) holding the
 * stalls put down to it, and, once JFR records, one {@code allocation-stall} line of every thread's
 * waits for memory under ZGC, summed apart ({@link #addAllocationStalls}): threads' waits, not the
 * meter's stalls, they are no cause and no part of the causes' shares. Every tag a log has counts
 * here, or the one {@code --tag} selects; so do the control JVMs' logs ({@code <log>.c}), whose
 * stalls happen outside the host JVM.
 *
 * <p>A cause's stall time in an interval is the longest stall of that cause in it (the line's
 * max): a lower bound, as the summary's stall time is, since a second stall of the same cause in
 * the same interval hides behind the first. A single log keeps each interval apart (keyed by its
 * start: the cause lines carry their interval's time stamps); several logs sum the hosts' figures
 * in time buckets as the merged timeline does. Only buckets with a stall are kept, so a day of a
 * thousand hosts costs what its stalls cost.
 */
final class StallCauses {

    /**
     * Tags that are another meter, not a cause: {@code virtual}, the virtual-thread meter of JDK
     * 21 and later, whose lines are that meter's hiccups ({@code --tag virtual} reads them).
     */
    private static final Set<String> METERS = Set.of("virtual");

    /** The tag of mech's lines of every thread's allocation stalls, one value per stall. */
    static final String ALLOCATION_STALL = "allocation-stall";

    /** Whether a log tag names a cause of stalls, rather than another meter or the allocation stalls. */
    static boolean isCause(final String tag) {
        return !METERS.contains(tag) && !ALLOCATION_STALL.equals(tag);
    }

    private final List<String> tags = new ArrayList<>();
    private long[] nanos = new long[8];
    private long[] stalls = new long[8];
    private long[] longest = new long[8];
    /** Whether the stall time is kept by time bucket too, for the cause chart: memory in proportion to the stalled buckets. */
    private final boolean byTime;
    private final TreeMap<Long, long[]> byBucket = new TreeMap<>();
    private final TreeMap<Long, Long> controlByBucket = new TreeMap<>();
    private double originSec;
    private double widthSec;
    private boolean exact;
    private long controlIntervals;
    private long controlStalled;
    private long controlStallNanos;
    private long controlLongest;
    private final List<String> controlLogs = new ArrayList<>();
    private long allocationStallIntervals;
    private long allocationStalledIntervals;
    private long allocationStalls;
    private long allocationStallNanos;
    private long longestAllocationStall;

    /** @param byTime whether to keep the stall time by time bucket, for the cause chart */
    StallCauses(final boolean byTime) {
        this.byTime = byTime;
    }

    /**
     * Sets the time buckets: from the earliest log's start, as long as the first interval.
     *
     * @param originSec seconds since the epoch where bucket 0 starts
     * @param widthSec  each bucket's length, at least a millisecond
     * @param exact     one bucket per interval start instead (a single log's intervals do not overlap)
     */
    void buckets(final double originSec, final double widthSec, final boolean exact) {
        this.originSec = originSec;
        this.widthSec = Math.max(0.001, Math.round(widthSec * 1000.0) / 1000.0);
        this.exact = exact;
    }

    /** Counts a tag the log has, stalled or not, so that the summary lists every cause. */
    int tagIndex(final String tag) {
        int i = tags.indexOf(tag);
        if (i < 0) {
            i = tags.size();
            tags.add(tag);
            if (i == nanos.length) {
                nanos = Arrays.copyOf(nanos, i * 2);
                stalls = Arrays.copyOf(stalls, i * 2);
                longest = Arrays.copyOf(longest, i * 2);
            }
        }
        return i;
    }

    /** A tagged interval of a host log: its max is the stall time put down to the tag. */
    void add(final String tag, final double startSec, final long maxNanos) {
        final int i = tagIndex(tag);
        if (maxNanos <= 0) {
            return;
        }
        nanos[i] += maxNanos;
        stalls[i]++;
        longest[i] = Math.max(longest[i], maxNanos);
        if (!byTime) {
            return;
        }
        final long key = bucket(startSec);
        long[] stack = byBucket.get(key);
        if (stack == null || stack.length <= i) {
            stack = stack == null ? new long[Math.max(4, i + 1)] : Arrays.copyOf(stack, i + 1);
            byBucket.put(key, stack);
        }
        stack[i] += maxNanos;
    }

    /**
     * An {@code allocation-stall} line of a host log.
     *
     * @param stalls its counts, or null when its max column says it holds none (it is not decoded)
     */
    void addAllocationStalls(final IntervalCounts stalls) {
        allocationStallIntervals++;
        if (stalls == null || stalls.totalCount() == 0) {
            return;
        }
        allocationStalledIntervals++;
        allocationStalls += stalls.totalCount();
        allocationStallNanos += stalls.sum();
        longestAllocationStall = Math.max(longestAllocationStall, stalls.max());
    }

    /** Whether the logs have {@code allocation-stall} lines: written only while JFR recorded, so none is not zero. */
    boolean hasAllocationStallLines() {
        return allocationStallIntervals > 0;
    }

    /** The {@code allocation-stall} lines read. */
    long allocationStallIntervals() {
        return allocationStallIntervals;
    }

    /** The {@code allocation-stall} lines with at least one stall. */
    long allocationStalledIntervals() {
        return allocationStalledIntervals;
    }

    /** Every thread's allocation stalls, each counted. */
    long allocationStalls() {
        return allocationStalls;
    }

    /** Their total length, thread by thread, in ns: each stall's value, within the histograms' precision. */
    long allocationStallNanos() {
        return allocationStallNanos;
    }

    /** The longest allocation stall, in ns. */
    long longestAllocationStall() {
        return longestAllocationStall;
    }

    /** An untagged interval of a control log, with the threshold the hosts' stalls are counted by. */
    void addControl(final double startSec, final long maxNanos, final long stallThreshold) {
        controlIntervals++;
        if (maxNanos >= stallThreshold) {
            controlStalled++;
            controlStallNanos += maxNanos;
        }
        controlLongest = Math.max(controlLongest, maxNanos);
        if (byTime) {
            controlByBucket.merge(bucket(startSec), maxNanos, Math::max);
        }
    }

    void noteControlLog(final String name) {
        controlLogs.add(name);
    }

    private long bucket(final double startSec) {
        return exact ? Math.round(startSec * 1000.0) : Math.round((startSec - originSec) / widthSec);
    }

    /** The tags, in the order first met. */
    List<String> tags() {
        return tags;
    }

    /** Stall time put down to tag {@code i}, in ns. */
    long nanos(final int i) {
        return nanos[i];
    }

    /** Intervals in which tag {@code i} had a stall. */
    long stalls(final int i) {
        return stalls[i];
    }

    /** The longest stall of tag {@code i}. */
    long longest(final int i) {
        return longest[i];
    }

    /** All tags' stall time together, what each tag's share is of. */
    long totalNanos() {
        long sum = 0;
        for (int i = 0; i < tags.size(); i++) {
            sum += nanos[i];
        }
        return sum;
    }

    /** Each bucket with a stall: its start in ms since the epoch, and the stall time of each tag (by index). */
    Map<Long, long[]> stacks() {
        final TreeMap<Long, long[]> out = new TreeMap<>();
        byBucket.forEach((k, v) -> out.put(startMillis(k), v));
        return out;
    }

    /** The control logs' longest hiccup in each bucket, by its start in ms since the epoch. */
    Map<Long, Long> control() {
        final TreeMap<Long, Long> out = new TreeMap<>();
        controlByBucket.forEach((k, v) -> out.put(startMillis(k), v));
        return out;
    }

    /** The length of a bucket (with exact buckets, of the first interval), in ms. */
    long bucketMillis() {
        return Math.round(widthSec * 1000.0);
    }

    private long startMillis(final long bucket) {
        return exact ? bucket : (long) ((originSec + bucket * widthSec) * 1000.0);
    }

    /** The control logs read, in command-line order. */
    List<String> controlLogs() {
        return controlLogs;
    }

    long controlIntervals() {
        return controlIntervals;
    }

    long controlStalled() {
        return controlStalled;
    }

    long controlStallNanos() {
        return controlStallNanos;
    }

    long controlLongest() {
        return controlLongest;
    }

    /** The tags' indexes, most stall time first, ties in the order first met. */
    List<Integer> byStallTime() {
        final List<Integer> order = new ArrayList<>();
        for (int i = 0; i < tags().size(); i++) {
            order.add(i);
        }
        order.sort((a, b) -> Long.compare(nanos(b), nanos(a)));
        return order;
    }
}
