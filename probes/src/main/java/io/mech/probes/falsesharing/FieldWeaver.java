package io.mech.probes.falsesharing;

import io.mech.probes.MechCode;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Weaves calls to {@link Tally} into the methods of the included classes, with ByteBuddy's ASM:
 * before every PUTFIELD and PUTSTATIC (writes) and GETFIELD and GETSTATIC (reads, but for the read of a
 * read-modify-write such as {@code o.f++}, whose write is counted) of a field
 * whose owner is included and that is not one of the class's own final fields; before calls on
 * {@code AtomicInteger}, {@code AtomicLong}, {@code AtomicBoolean} and {@code AtomicReference}
 * (their {@code value}); before calls on a VarHandle or an {@code Atomic*FieldUpdater} the class's
 * static initialiser got from {@code findVarHandle}, {@code findStaticVarHandle} or
 * {@code newUpdater} and kept in a static field (the field it stands for); and before calls on
 * {@code AtomicLongArray}, {@code AtomicIntegerArray}, {@code AtomicReferenceArray} and on a static
 * VarHandle from {@code MethodHandles.arrayElementVarHandle} that take an index (the array and
 * the index, as a {@link SlotKind}); before plain array instructions ({@code xALOAD},
 * {@code xASTORE}) of Java 7 and later class files, which count the array and the index as the
 * same slots, with the site the array came from ({@link ArraySource}, {@link ArraySites}); and
 * before calls on {@code sun.misc.Unsafe},
 * {@code jdk.internal.misc.Unsafe} and Agrona's {@code UnsafeApi} that take an object and a
 * field offset kept in a static long, when the static initialiser took that offset of a named
 * field ({@code objectFieldOffset(X.class.getDeclaredField("f"))}, or a {@code fieldOffset(X.class,
 * "f")} helper as JCTools has).
 *
 * <p>Calls on a VarHandle, a field updater or an Unsafe that it cannot tie to a field or an array
 * are counted as {@link Uncounted}, for the report to say what it did not look at.
 *
 * <p>A write made holding a monitor ({@code synchronized}) or a {@code java.util.concurrent} lock
 * ({@link LockGuard}) is counted as guarded: such a field's cost is lock contention, which the
 * lock probe reports, not true sharing. Each monitor enter and exit and each lock, successful
 * tryLock and unlock is also told to {@link Tally}, which keeps how many locks the thread holds,
 * so that writes in the methods it calls holding one count as guarded too.
 *
 * <p>A class is read twice: {@link ClassScan} learns its final fields, its static handles and its
 * methods' locals; {@link ClassRewrite} then weaves each method ({@link CountingMethod}), whose
 * recognisers say what an access reaches and {@link CountingCode} writes the calls. A class that
 * cannot be woven is left as it was, with one warning.
 */
final class FieldWeaver implements ClassFileTransformer {

    private final List<String> included;
    private final FieldTable table;
    private final ArraySites sites;
    private final Uncounted uncounted = new Uncounted();
    private volatile boolean sitesFull;
    private final Consumer<String> warnings;
    private volatile boolean full;
    private final AtomicInteger wovenClasses = new AtomicInteger();
    private final Map<ClassLoader, Boolean> loaders = new WeakHashMap<>();

    /**
     * @param included package prefixes in internal form, e.g. {@code io/mech/examples/}
     * @param table    where field ids come from
     * @param sites    where the ids of plain array instructions' sites come from
     * @param warnings one line per class that could not be woven
     */
    FieldWeaver(final List<String> included, final FieldTable table, final ArraySites sites, final Consumer<String> warnings) {
        this.included = List.copyOf(included);
        this.table = table;
        this.sites = sites;
        this.warnings = warnings;
    }

    /** @return the accesses this weaver met and could not count, for a window's report */
    Uncounted uncounted() {
        return uncounted;
    }

    /**
     * @return whether code in this class (internal name) is woven and its fields counted: mech's own
     *         classes never are, whatever the included packages (an include of {@code io} or {@code io.mech})
     */
    boolean includes(final String internalName) {
        if (MechCode.contains(internalName)) {
            return false;
        }
        for (final String prefix : included) {
            if (internalName.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** @return how many class files this transformer has woven, retransformations included */
    int woven() {
        return wovenClasses.get();
    }

    /**
     * Woven code links to {@link Tally}: a loader that cannot see mech's own Tally (an isolating
     * loader) would make it fail at run time, so its classes are left alone, with one warning.
     */
    private boolean seesTally(final ClassLoader loader) {
        synchronized (loaders) {
            final Boolean known = loaders.get(loader);
            if (known != null) {
                return known;
            }
        }
        boolean sees;
        try {
            sees = Class.forName(Tally.class.getName(), false, loader) == Tally.class;
        } catch (final ClassNotFoundException | LinkageError e) {
            sees = false;
        }
        if (!sees) {
            warnings.accept("false-sharing probe: classes of " + loader + " cannot see mech's classes; not woven");
        }
        synchronized (loaders) {
            loaders.put(loader, sees);
        }
        return sees;
    }

    @Override
    public byte[] transform(final Module module, final ClassLoader loader, final String className,
                            final Class<?> redefined, final ProtectionDomain domain, final byte[] classFile) {
        if (loader == null || className == null || !includes(className) || !seesTally(loader)) {
            return null;
        }
        try {
            final ClassReader reader = new ClassReader(classFile);
            if ((reader.getAccess() & Opcodes.ACC_INTERFACE) != 0) {
                return null;
            }
            final ClassScan scan = new ClassScan();
            reader.accept(scan, ClassReader.SKIP_DEBUG);
            final ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
            final ClassRewrite rewrite = new ClassRewrite(writer, this, className, scan, loader);
            reader.accept(rewrite, 0);
            // before the check for a change: a class may do nothing the weaving counts and much it cannot
            uncounted.record(className, rewrite.uncounted());
            if (!rewrite.changed()) {
                return null;
            }
            wovenClasses.incrementAndGet();
            return writer.toByteArray();
        } catch (final Throwable t) {
            warnings.accept("false-sharing probe: " + className.replace('/', '.') + " not woven (" + t + ")");
            return null;
        }
    }

    /** @return the id of a plain array instruction's site, or -1 when the table is full (warned once) */
    int siteId(final String name) {
        final int id = sites.id(name);
        if (id < 0 && !sitesFull) {
            sitesFull = true;
            warnings.accept("false-sharing probe: more than " + (ArraySites.MAX - 1)
                + " array sites in the included packages; narrow probes.falsesharing.include to count the rest");
        }
        return id;
    }

    /** @return a field's id, or -1 when the table is full (warned once) */
    int fieldId(final String owner, final String field, final boolean isStatic, final ClassLoader loader) {
        final int id = table.id(owner, field, isStatic, loader);
        if (id < 0 && !full) {
            full = true;
            warnings.accept("false-sharing probe: more than " + (Tally.FIELDS - 1)
                + " fields in the included packages; narrow probes.falsesharing.include to count the rest");
        }
        return id;
    }
}
