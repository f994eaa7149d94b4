package io.mech.probes.falsesharing;

import java.util.Map;
import java.util.Set;

/**
 * The names, in internal form, of the APIs through which code reaches a field or an array's
 * slot other than by a plain instruction, and of the locks that guard a write: what the weaving's
 * recognisers look for in a class file.
 */
final class AccessApis {

    static final String VAR_HANDLE = "java/lang/invoke/VarHandle";
    static final String VAR_HANDLE_DESCRIPTOR = "L" + VAR_HANDLE + ";";
    static final String LOOKUP = "java/lang/invoke/MethodHandles$Lookup";
    static final String HANDLES = "java/lang/invoke/MethodHandles";
    static final Map<String, SlotKind> ATOMIC_ARRAYS = Map.of(
        "java/util/concurrent/atomic/AtomicLongArray", SlotKind.ATOMIC_LONG_ARRAY,
        "java/util/concurrent/atomic/AtomicIntegerArray", SlotKind.ATOMIC_INTEGER_ARRAY,
        "java/util/concurrent/atomic/AtomicReferenceArray", SlotKind.ATOMIC_REFERENCE_ARRAY);
    /** Classes whose calls take (object, field offset, ...): the JDK's two Unsafes and Agrona's static wrapper. */
    static final Set<String> UNSAFES = Set.of("sun/misc/Unsafe", "jdk/internal/misc/Unsafe", "org/agrona/UnsafeApi");
    static final Set<String> FIELD_UPDATERS = Set.of("java/util/concurrent/atomic/AtomicLongFieldUpdater",
        "java/util/concurrent/atomic/AtomicIntegerFieldUpdater", "java/util/concurrent/atomic/AtomicReferenceFieldUpdater");
    static final Set<String> ATOMICS = Set.of("java/util/concurrent/atomic/AtomicInteger",
        "java/util/concurrent/atomic/AtomicLong", "java/util/concurrent/atomic/AtomicBoolean",
        "java/util/concurrent/atomic/AtomicReference");
    static final Set<String> ATOMIC_READS = Set.of("get", "getPlain", "getOpaque", "getAcquire", "intValue",
        "longValue", "floatValue", "doubleValue");
    static final Set<String> ATOMIC_NEITHER = Set.of("toString", "hashCode", "equals", "getClass");
    static final Set<String> HANDLE_READS = Set.of("get", "getVolatile", "getOpaque", "getAcquire");
    static final String LOCKS = "java/util/concurrent/locks/";
    static final Set<String> LOCKING = Set.of("lock", "lockInterruptibly", "tryLock");

    private AccessApis() {
    }

    /** @return whether an Unsafe method only reads: {@code getLongVolatile}, not {@code getAndAddLong} */
    static boolean isUnsafeRead(final String method) {
        return method.startsWith("get") && !method.startsWith("getAnd");
    }

    /** @return whether a field's descriptor names one of the field updater classes */
    static boolean isFieldUpdater(final String descriptor) {
        return descriptor.length() > 2 && FIELD_UPDATERS.contains(descriptor.substring(1, descriptor.length() - 1));
    }
}
