package io.mech.probes.falsesharing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where woven plain array instructions ({@code xALOAD}, {@code xASTORE}) found their array: the
 * field they read it from (e.g. {@code app.Counters.hits}) or, when the array came from a local or
 * an argument, the method they are in (e.g. {@code app.Worker.run}). Ids are small ints woven code
 * passes above a {@link SlotKind}'s code ({@link #code}); id 0 means an atomic array or a
 * VarHandle, which need no site.
 *
 * <p>Thread safe: transformers on several threads may add sites at once.
 */
final class ArraySites {

    /** Sites a run tells apart: a site's code then fits an int with the kind's 8 bits below it. */
    static final int MAX = 1 << 20;
    /** How a site is put above the kind's code. */
    private static final int SHIFT = 8;

    private final Map<String, Integer> ids = new HashMap<>();
    private final List<String> names = new ArrayList<>();

    ArraySites() {
        names.add(null);
    }

    /**
     * @param name a field ({@code app.Counters.hits}) or a method ({@code in app.Worker.run})
     * @return the site's id, or -1 when the table is full
     */
    synchronized int id(final String name) {
        final Integer known = ids.get(name);
        if (known != null) {
            return known;
        }
        if (names.size() >= MAX) {
            return -1;
        }
        final int id = names.size();
        names.add(name);
        ids.put(name, id);
        return id;
    }

    /** @return the site's name, or null for 0 and unknown ids */
    synchronized String name(final long id) {
        return id < 1 || id >= names.size() ? null : names.get((int) id);
    }

    /** @return what woven code passes to {@link Tally}'s slot methods: the kind's code with the site above it */
    static int code(final SlotKind kind, final int site) {
        return site << SHIFT | kind.code();
    }

    /** @return the kind's code in what woven code passed */
    static int kind(final int code) {
        return code & ((1 << SHIFT) - 1);
    }

    /** @return the site in what woven code passed, 0 for none */
    static int site(final int code) {
        return code >>> SHIFT;
    }
}
