package io.mech.probes.falsesharing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fields woven code counts, by the owner and name an instruction names (the owner may be a
 * subclass of the declaring class; the analysis resolves it). Ids are small ints that woven
 * code pushes as constants; id 0 is reserved.
 *
 * <p>Thread safe: transformers on several threads may add fields at once.
 */
final class FieldTable {

    /**
     * One field as an instruction names it.
     *
     * @param owner    the owner's internal name
     * @param name     the field's name
     * @param isStatic whether a static field
     * @param loader   the loader of the class whose code named it, to resolve the owner
     */
    record Ref(String owner, String name, boolean isStatic, ClassLoader loader) {
    }

    private final Map<String, Integer> ids = new ConcurrentHashMap<>();
    private final List<Ref> refs = new ArrayList<>();

    FieldTable() {
        refs.add(null);
    }

    /** @return the field's id, or -1 when the table is full */
    synchronized int id(final String owner, final String name, final boolean isStatic, final ClassLoader loader) {
        final String key = owner + '.' + name;
        final Integer known = ids.get(key);
        if (known != null) {
            return known;
        }
        if (refs.size() >= Tally.FIELDS) {
            return -1;
        }
        final int id = refs.size();
        refs.add(new Ref(owner, name, isStatic, loader));
        ids.put(key, id);
        return id;
    }

    /** @return every field so far, index = id (index 0 is null) */
    synchronized List<Ref> refs() {
        return new ArrayList<>(refs);
    }
}
