package io.mech.probes.falsesharing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The accesses the weaver met in the included classes and could not count, by kind, so that a
 * window that finds nothing says what it did not look at instead of a clean bill of health.
 * A class woven again (attached, every window) replaces its earlier counts.
 *
 * <p>Thread safe: transformers on several threads record at once; mech's thread reads.
 */
final class Uncounted {

    /** What kind of access went uncounted. */
    enum Kind {
        /**
         * A VarHandle call on a handle that is not a field's or an array element's, made by a static
         * initialiser and kept in a static field: kept elsewhere, or a byte buffer's view.
         */
        VAR_HANDLES("VarHandle calls on a handle mech cannot place (not a field's or array element's kept in a static field)"),
        /** A field updater call on an updater not made by a static initialiser and kept in a static field. */
        FIELD_UPDATERS("field-updater calls on an updater mech cannot place (not kept in a static field)"),
        /** An Unsafe call on an object at an offset not taken of a named field: array elements, as queues store theirs. */
        UNSAFE_OFFSETS("Unsafe calls at an offset not taken of a named field (array elements through Unsafe)"),
        /** Plain array instructions of a class file older than Java 7, which cannot link a switched call site. */
        OLD_CLASS_FILE_ARRAYS("array element accesses in class files older than Java 7");

        private final String what;

        Kind(final String what) {
            this.what = what;
        }
    }

    private final Map<String, int[]> byClass = new ConcurrentHashMap<>();

    /**
     * @param className the woven class's internal name
     * @param counts    its uncounted accesses, indexed by {@link Kind#ordinal()}
     */
    void record(final String className, final int[] counts) {
        boolean any = false;
        for (final int count : counts) {
            any |= count > 0;
        }
        if (any) {
            byClass.put(className, counts.clone());
        } else {
            byClass.remove(className);
        }
    }

    /**
     * @return one phrase per kind met, e.g. {@code 3 field-updater calls on an updater mech cannot place
     * (not kept in a static field), in 2 classes}
     */
    List<String> phrases() {
        final int[] sites = new int[Kind.values().length];
        final int[] classes = new int[Kind.values().length];
        for (final int[] counts : byClass.values()) {
            for (int k = 0; k < counts.length; k++) {
                sites[k] += counts[k];
                classes[k] += counts[k] > 0 ? 1 : 0;
            }
        }
        final List<String> phrases = new ArrayList<>();
        for (final Kind kind : Kind.values()) {
            if (sites[kind.ordinal()] > 0) {
                phrases.add(String.format(Locale.ROOT, "%d %s, in %d %s", sites[kind.ordinal()], kind.what, classes[kind.ordinal()],
                    classes[kind.ordinal()] == 1 ? "class" : "classes"));
            }
        }
        return phrases;
    }
}
