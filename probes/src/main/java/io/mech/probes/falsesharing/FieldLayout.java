package io.mech.probes.falsesharing;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Where the JVM put a class's fields, read at run time: never assumed, since JDK 15+ packs
 * fields and compact object headers move them again. Instance fields include inherited ones;
 * static fields live in the class's {@code java.lang.Class} mirror.
 */
final class FieldLayout {

    /** A cache line, in bytes. */
    static final int LINE = 64;

    private final InternalUnsafe unsafe;
    private final long alignment;

    FieldLayout(final InternalUnsafe unsafe, final long alignment) {
        this.unsafe = unsafe;
        this.alignment = alignment;
    }

    /**
     * One field and its place.
     *
     * @param declaring the declaring class
     * @param field     the field
     * @param offset    bytes from the start of the object (of the Class mirror for a static)
     * @param size      bytes the field takes
     */
    record Placed(Class<?> declaring, Field field, long offset, int size) {

        boolean isStatic() {
            return Modifier.isStatic(field.getModifiers());
        }

        boolean isFinal() {
            return Modifier.isFinal(field.getModifiers());
        }

        /** @return Class.field, the way reports name it */
        String name() {
            return declaring.getName() + "." + field.getName();
        }
    }

    /**
     * @param declaring the class that declares the field
     * @param name      the field's name
     * @return its place, or null when there is no such field
     */
    Placed place(final Class<?> declaring, final String name) {
        final Field field;
        try {
            field = declaring.getDeclaredField(name);
        } catch (final NoSuchFieldException e) {
            return null;
        }
        return place(declaring, field);
    }

    private Placed place(final Class<?> declaring, final Field field) {
        final long offset = Modifier.isStatic(field.getModifiers()) ? unsafe.staticFieldOffset(field) : unsafe.objectFieldOffset(field);
        return new Placed(declaring, field, offset, size(field.getType()));
    }

    private int size(final Class<?> type) {
        if (type == long.class || type == double.class) {
            return 8;
        }
        if (type == int.class || type == float.class) {
            return 4;
        }
        if (type == short.class || type == char.class) {
            return 2;
        }
        if (type == byte.class || type == boolean.class) {
            return 1;
        }
        return unsafe.compressed() ? 4 : 8;
    }

    /**
     * Finds the field an instruction names: declared by the owner or one of its superclasses.
     *
     * @param owner the class an instruction names
     * @param name  the field's name
     * @return its place, or null when none of them declares it
     */
    Placed resolve(final Class<?> owner, final String name) {
        for (Class<?> c = owner; c != null; c = c.getSuperclass()) {
            final Placed placed = place(c, name);
            if (placed != null) {
                return placed;
            }
        }
        return null;
    }

    /**
     * The probability that two fields of one object share a line: the object may start at any
     * multiple of the alignment within a line, each equally likely.
     */
    double sameLine(final long offsetA, final long offsetB) {
        final long step = Math.min(alignment, LINE);
        int same = 0;
        int starts = 0;
        for (long start = 0; start < LINE; start += step) {
            starts++;
            if ((start + offsetA) / LINE == (start + offsetB) / LINE) {
                same++;
            }
        }
        return (double) same / starts;
    }

    /**
     * The candidate pairs of a class: its non-final instance fields (inherited ones too) and,
     * separately, its non-final statics, 127 bytes apart or closer.
     *
     * @param type a class
     * @return its candidates, same-line ones with their probability, then adjacent-line ones
     */
    List<LayoutCandidate> candidates(final Class<?> type) {
        return candidates(type, field -> true);
    }

    /**
     * The candidate pairs of a class among the fields some code uses: padding, which no code
     * reads or writes, is no candidate (a library padded with 128 byte fields a side would give
     * thousands of pairs).
     *
     * @param type a class
     * @param used whether code reads or writes a field
     * @return its candidates among the used fields
     */
    List<LayoutCandidate> candidates(final Class<?> type, final Predicate<Field> used) {
        final List<Placed> instance = new ArrayList<>();
        final List<Placed> statics = new ArrayList<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (final Field field : c.getDeclaredFields()) {
                if (Modifier.isFinal(field.getModifiers()) || !used.test(field)) {
                    continue;
                }
                if (!Modifier.isStatic(field.getModifiers())) {
                    instance.add(place(c, field));
                } else if (c == type) {
                    statics.add(place(c, field));
                }
            }
        }
        final List<LayoutCandidate> found = new ArrayList<>();
        pairs(instance, found, type);
        pairs(statics, found, type);
        return found;
    }

    private void pairs(final List<Placed> fields, final List<LayoutCandidate> found, final Class<?> type) {
        fields.sort((a, b) -> Long.compare(a.offset(), b.offset()));
        for (int i = 0; i < fields.size(); i++) {
            for (int j = i + 1; j < fields.size(); j++) {
                final Placed a = fields.get(i);
                final Placed b = fields.get(j);
                final long apart = b.offset() - a.offset();
                if (apart >= 2 * LINE) {
                    break;
                }
                final boolean adjacent = apart >= LINE;
                final double p = adjacent ? sameLine(a.offset(), b.offset() - LINE) : sameLine(a.offset(), b.offset());
                found.add(new LayoutCandidate(type.getName(), a.field().getName(), a.offset(), b.field().getName(), b.offset(),
                    p, adjacent));
            }
        }
    }
}
