package io.mech.probes.falsesharing;

import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.util.Map;
import java.util.Set;

/**
 * The parts of {@code jdk.internal.misc.Unsafe} the probe needs: field offsets (instance and
 * static, records and hidden classes included) and the raw reference slot of an array, from
 * which an object's address follows. {@code sun.misc.Unsafe} would warn on JDK 24+ and refuses
 * records, so {@link #open} exports {@code jdk.internal.misc} to mech first.
 */
final class InternalUnsafe {

    private static final MethodType OFFSET = MethodType.methodType(long.class, Field.class);

    private static volatile InternalUnsafe opened;

    private final MethodHandle objectFieldOffset;
    private final MethodHandle staticFieldOffset;
    private final MethodHandle getInt;
    private final MethodHandle getLong;
    private final MethodHandle arrayBaseOffset;
    private final MethodHandle arrayIndexScale;
    private final long objectArrayBase;
    private final int objectArrayScale;

    private InternalUnsafe(final Object unsafe, final Class<?> type) throws ReflectiveOperationException {
        final MethodHandles.Lookup lookup = MethodHandles.lookup();
        objectFieldOffset = lookup.findVirtual(type, "objectFieldOffset", OFFSET).bindTo(unsafe);
        staticFieldOffset = lookup.findVirtual(type, "staticFieldOffset", OFFSET).bindTo(unsafe);
        getInt = lookup.findVirtual(type, "getInt", MethodType.methodType(int.class, Object.class, long.class)).bindTo(unsafe);
        getLong = lookup.findVirtual(type, "getLong", MethodType.methodType(long.class, Object.class, long.class)).bindTo(unsafe);
        arrayBaseOffset = ofArray(lookup, type, "arrayBaseOffset").bindTo(unsafe);
        arrayIndexScale = ofArray(lookup, type, "arrayIndexScale").bindTo(unsafe);
        // int on JDK 17, long from JDK 23: read the constants as numbers
        objectArrayBase = ((Number) type.getField("ARRAY_OBJECT_BASE_OFFSET").get(null)).longValue();
        objectArrayScale = ((Number) type.getField("ARRAY_OBJECT_INDEX_SCALE").get(null)).intValue();
    }

    /** An array method returning int (JDK 17) or long (JDK 23 and later), as one returning long. */
    private static MethodHandle ofArray(final MethodHandles.Lookup lookup, final Class<?> type, final String name)
        throws ReflectiveOperationException {
        final MethodType asLong = MethodType.methodType(long.class, Class.class);
        try {
            return lookup.findVirtual(type, name, asLong);
        } catch (final NoSuchMethodException e) {
            return lookup.findVirtual(type, name, MethodType.methodType(int.class, Class.class))
                .asType(MethodType.methodType(long.class, type, Class.class));
        }
    }

    /**
     * Exports {@code jdk.internal.misc} to mech's module and binds the handles; later calls
     * return the same instance.
     *
     * @param inst the agent's instrumentation
     * @return the opened Unsafe
     * @throws ReflectiveOperationException when the JVM has no such Unsafe
     */
    static InternalUnsafe open(final Instrumentation inst) throws ReflectiveOperationException {
        InternalUnsafe unsafe = opened;
        if (unsafe == null) {
            inst.redefineModule(Object.class.getModule(), Set.of(),
                Map.of("jdk.internal.misc", Set.of(InternalUnsafe.class.getModule())), Map.of(), Set.of(), Map.of());
            final Class<?> type = Class.forName("jdk.internal.misc.Unsafe");
            unsafe = new InternalUnsafe(type.getMethod("getUnsafe").invoke(null), type);
            opened = unsafe;
        }
        return unsafe;
    }

    long objectFieldOffset(final Field field) {
        return call(objectFieldOffset, field);
    }

    long staticFieldOffset(final Field field) {
        return call(staticFieldOffset, field);
    }

    private static long call(final MethodHandle handle, final Field field) {
        try {
            return (long) handle.invokeExact(field);
        } catch (final RuntimeException | Error e) {
            throw e;
        } catch (final Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** @return where an array class's first element is, in bytes from the array's start */
    long arrayBaseOffset(final Class<?> arrayClass) {
        return ofArray(arrayBaseOffset, arrayClass);
    }

    /** @return the bytes between an array class's elements */
    long arrayIndexScale(final Class<?> arrayClass) {
        return ofArray(arrayIndexScale, arrayClass);
    }

    private static long ofArray(final MethodHandle handle, final Class<?> arrayClass) {
        try {
            return (long) handle.invokeExact(arrayClass);
        } catch (final RuntimeException | Error e) {
            throw e;
        } catch (final Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** @return the offset of element {@code index} of an Object[] */
    long slot(final int index) {
        return objectArrayBase + (long) index * objectArrayScale;
    }

    /** @return whether references are stored in 4 bytes (compressed oops) */
    boolean compressed() {
        return objectArrayScale == 4;
    }

    /**
     * The raw bits of a reference slot: a compressed oop or an address.
     *
     * @param array  an Object[]
     * @param offset a slot's offset, from {@link #slot}
     * @return the slot's bits, unsigned
     */
    long rawSlot(final Object[] array, final long offset) {
        try {
            return compressed() ? ((int) getInt.invokeExact((Object) array, offset)) & 0xFFFF_FFFFL
                : (long) getLong.invokeExact((Object) array, offset);
        } catch (final RuntimeException | Error e) {
            throw e;
        } catch (final Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
