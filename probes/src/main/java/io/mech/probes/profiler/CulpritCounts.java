package io.mech.probes.profiler;

import io.mech.probes.JdkCode;
import io.mech.probes.MechCode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Samples taken while safepoints waited, counted by culprit: the topmost frame of the
 * application's code on each sampled stack, and what it was in most often (one method may be
 * sampled in {@code System.arraycopy} while interpreted and in the JVM's copy stub once compiled).
 *
 * <p>Reads async-profiler's collapsed output with frame annotations ({@code collapsed,ann,dot}):
 * one stack a line, root first, frames separated by {@code ;}, the sample count after the last
 * space. A Java frame ends in {@code _[j]} (compiled), {@code _[i]} (inlined), {@code _[1]} (C1)
 * or {@code _[0]} (interpreted), a kernel frame in {@code _[k]}; the JVM's and native frames
 * carry no suffix.
 *
 * <p>A stack with no Java frame is the JVM's own (the VM thread waiting for the others, a
 * collector's worker) and not counted. A stack whose first frame outside the JDK is mech's is
 * mech's doing, and not counted either: mech is never its own finding. Not thread-safe: the
 * profiler thread alone fills it.
 */
final class CulpritCounts {

    /** Distinct culprits kept; further ones are summed under {@link #OTHER}. */
    static final int MAX_CULPRITS = 256;

    /**
     * The fewest samples that name a culprit: at a sample every 10 ms of CPU, about 100 ms of
     * safepoint windows it held up. One sample is a thread caught on its way to the safepoint,
     * not one that kept it waiting.
     */
    static final long MIN_SAMPLES = 10;

    /** The culprit under which samples beyond {@link #MAX_CULPRITS} are summed. */
    static final String OTHER = "other";

    /** The longest list of frames a culprit was seen in; further ones are not told apart. */
    private static final int MAX_INS = 8;

    record Site(String method, String in) {
    }

    /** One culprit's samples, and theirs by what it was in. */
    private static final class Tally {
        long samples;
        final Map<String, Long> ins = new HashMap<>();

        void add(final String in, final long count) {
            samples += count;
            if (ins.containsKey(in) || ins.size() < MAX_INS) {
                ins.merge(in, count, Long::sum);
            }
        }

        String mostOftenIn() {
            String most = "";
            long mostSamples = -1;
            for (final Map.Entry<String, Long> in : ins.entrySet()) {
                if (in.getValue() > mostSamples || in.getValue() == mostSamples && in.getKey().compareTo(most) < 0) {
                    most = in.getKey();
                    mostSamples = in.getValue();
                }
            }
            return most;
        }
    }

    private final Map<String, Tally> counts = new HashMap<>();
    private long samples;

    /** Adds every stack of a collapsed dump. */
    void addCollapsed(final String collapsed) {
        int from = 0;
        while (from < collapsed.length()) {
            int to = collapsed.indexOf('\n', from);
            if (to < 0) {
                to = collapsed.length();
            }
            addLine(collapsed.substring(from, to));
            from = to + 1;
        }
    }

    /** Adds every count of another. */
    void addAll(final CulpritCounts other) {
        other.counts.forEach((method, tally) -> tally.ins.forEach((in, count) -> add(new Site(method, in), count)));
    }

    /** Forgets every count. */
    void clear() {
        counts.clear();
        samples = 0;
    }

    /**
     * The counts as they stand.
     *
     * @param top         how many culprits to keep, most samples first, each with at least
     *                    {@link #MIN_SAMPLES}
     * @param unavailable why sampling stopped or never ran, or null
     */
    TtspCulprits snapshot(final int top, final String unavailable) {
        final List<TtspCulprits.Culprit> all = new ArrayList<>(counts.size());
        counts.forEach((method, tally) -> {
            if (tally.samples >= MIN_SAMPLES) {
                all.add(new TtspCulprits.Culprit(method, tally.mostOftenIn(), tally.samples));
            }
        });
        all.sort(Comparator.comparingLong(TtspCulprits.Culprit::samples).reversed().thenComparing(TtspCulprits.Culprit::method));
        return new TtspCulprits(samples, all.subList(0, Math.min(top, all.size())), unavailable);
    }

    private void addLine(final String line) {
        final int space = line.lastIndexOf(' ');
        if (space <= 0) {
            return;
        }
        final long count;
        try {
            count = Long.parseLong(line.substring(space + 1).trim());
        } catch (final NumberFormatException e) {
            return;
        }
        final Site site = culprit(line.substring(0, space).split(";"));
        if (site != null) {
            add(site, count);
        }
    }

    /**
     * The culprit of one stack, root first: walking down from the top, the first Java frame
     * outside the JDK, or else the topmost Java frame; null for a stack that is the JVM's or mech's.
     */
    static Site culprit(final String[] frames) {
        String above = "";
        Site topmostJdk = null;
        for (int i = frames.length - 1; i >= 0; i--) {
            final String frame = frames[i];
            if (frame.endsWith("_[k]")) {
                continue;
            }
            final String method = javaMethod(frame);
            if (method == null) {
                above = frame;
                continue;
            }
            final String className = className(method);
            if (MechCode.contains(className)) {
                return null;
            }
            if (!JdkCode.contains(className)) {
                return new Site(method, above);
            }
            if (topmostJdk == null) {
                topmostJdk = new Site(method, above);
            }
            above = method;
        }
        return topmostJdk;
    }

    /** A Java frame's class.method without its annotation; null for any other frame. */
    private static String javaMethod(final String frame) {
        if (frame.length() > 4 && frame.charAt(frame.length() - 4) == '_' && frame.charAt(frame.length() - 3) == '['
            && frame.charAt(frame.length() - 1) == ']') {
            final char type = frame.charAt(frame.length() - 2);
            if (type == 'j' || type == 'i' || type == '0' || type == '1') {
                return frame.substring(0, frame.length() - 4);
            }
        }
        return null;
    }

    private static String className(final String method) {
        final int dot = method.lastIndexOf('.');
        return dot < 0 ? method : method.substring(0, dot);
    }

    private void add(final Site site, final long count) {
        samples += count;
        Tally tally = counts.get(site.method());
        if (tally == null) {
            final boolean room = counts.size() < MAX_CULPRITS;
            tally = counts.computeIfAbsent(room ? site.method() : OTHER, k -> new Tally());
            tally.add(room ? site.in() : "", count);
        } else {
            tally.add(site.in(), count);
        }
    }
}
