package io.mech.probes.falsesharing;

import io.mech.probes.MechCode;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.FieldVisitor;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

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
 * <p>A write made holding a monitor ({@code synchronized}) or a {@code java.util.concurrent} lock,
 * as far as the order of the code tells (lock, then unlock), is counted as guarded: such a field's
 * cost is lock contention, which the lock probe reports, not true sharing. Each monitor enter
 * and exit and each lock, successful tryLock and unlock is also told to {@link Tally}, which keeps
 * how many locks the thread holds, so that writes in the methods it calls holding one count as
 * guarded too.
 *
 * <p>Constructors and static initialisers are left alone: they run once per object, not in the
 * loops that share lines. Control flow is never changed, so the stack map frames stay valid;
 * arguments of a call are parked in fresh locals above the method's own while the target is
 * counted. A class that cannot be woven is left as it was, with one warning.
 *
 * <p>In class files of Java 7 and later each count is an {@code invokedynamic} linked to one of
 * {@link Tally}'s switched call sites, so between bursts the JIT compiles it to nothing; older
 * class files call Tally's methods, which check a flag each time.
 */
final class FieldWeaver implements ClassFileTransformer {

    private static final String TALLY = Type.getInternalName(Tally.class);
    private static final String COUNT = "(Ljava/lang/Object;I)V";
    private static final String COUNT_SLOT = "(Ljava/lang/Object;II)V";
    private static final Handle LINK = new Handle(Opcodes.H_INVOKESTATIC, TALLY, "site",
        "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/CallSite;", false);
    private static final String VAR_HANDLE = "java/lang/invoke/VarHandle";
    private static final String LOOKUP = "java/lang/invoke/MethodHandles$Lookup";
    private static final String HANDLES = "java/lang/invoke/MethodHandles";
    private static final Map<String, SlotKind> ATOMIC_ARRAYS = Map.of(
        "java/util/concurrent/atomic/AtomicLongArray", SlotKind.ATOMIC_LONG_ARRAY,
        "java/util/concurrent/atomic/AtomicIntegerArray", SlotKind.ATOMIC_INTEGER_ARRAY,
        "java/util/concurrent/atomic/AtomicReferenceArray", SlotKind.ATOMIC_REFERENCE_ARRAY);
    /** Classes whose calls take (object, field offset, ...): the JDK's two Unsafes and Agrona's static wrapper. */
    private static final Set<String> UNSAFES = Set.of("sun/misc/Unsafe", "jdk/internal/misc/Unsafe", "org/agrona/UnsafeApi");
    private static final Set<String> FIELD_UPDATERS = Set.of("java/util/concurrent/atomic/AtomicLongFieldUpdater",
        "java/util/concurrent/atomic/AtomicIntegerFieldUpdater", "java/util/concurrent/atomic/AtomicReferenceFieldUpdater");
    private static final Set<String> ATOMICS = Set.of("java/util/concurrent/atomic/AtomicInteger",
        "java/util/concurrent/atomic/AtomicLong", "java/util/concurrent/atomic/AtomicBoolean",
        "java/util/concurrent/atomic/AtomicReference");
    private static final Set<String> ATOMIC_READS = Set.of("get", "getPlain", "getOpaque", "getAcquire", "intValue",
        "longValue", "floatValue", "doubleValue");
    private static final Set<String> ATOMIC_NEITHER = Set.of("toString", "hashCode", "equals", "getClass");
    private static final Set<String> HANDLE_READS = Set.of("get", "getVolatile", "getOpaque", "getAcquire");
    private static final String LOCKS = "java/util/concurrent/locks/";
    private static final Set<String> LOCKING = Set.of("lock", "lockInterruptibly", "tryLock");
    /** No tryLock's result is the next instruction's operand. */
    private static final int NOT_TRIED = -1;
    /** A VarHandle's access modes: get, set, compareAndSet, getAndAdd, weakCompareAndSetPlain and the rest. */
    private static final Pattern VAR_HANDLE_ACCESS = Pattern.compile("(get|set|compare|weak).*");

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
            final Scan scan = new Scan();
            reader.accept(scan, ClassReader.SKIP_DEBUG);
            final ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
            final Rewrite rewrite = new Rewrite(writer, className, scan, loader);
            reader.accept(rewrite, 0);
            // before the check for a change: a class may do nothing the weaving counts and much it cannot
            uncounted.record(className, rewrite.uncounted);
            if (!rewrite.changed) {
                return null;
            }
            wovenClasses.incrementAndGet();
            return writer.toByteArray();
        } catch (final Throwable t) {
            warnings.accept("false-sharing probe: " + className.replace('/', '.') + " not woven (" + t + ")");
            return null;
        }
    }

    /** @return whether an Unsafe method only reads: {@code getLongVolatile}, not {@code getAndAddLong} */
    private static boolean isUnsafeRead(final String method) {
        return method.startsWith("get") && !method.startsWith("getAnd");
    }

    /** A field a static VarHandle, field updater or field offset stands for. */
    private record Target(String owner, String name, boolean isStatic) {
    }

    /**
     * First pass: the class's final fields, its static VarHandles and field updaters (and the field
     * each stands for), its static array-element VarHandles (and their arrays' kind) and each
     * method's locals.
     */
    private static final class Scan extends ClassVisitor {
        final Set<String> finals = new HashSet<>();
        final Map<String, Target> handles = new HashMap<>();
        final Map<String, Target> updaters = new HashMap<>();
        final Map<String, SlotKind> slotHandles = new HashMap<>();
        /** Static long fields holding a field's offset, as a static initialiser computed it. */
        final Map<String, Target> offsets = new HashMap<>();
        final Map<String, Integer> maxLocals = new HashMap<>();

        Scan() {
            super(Opcodes.ASM9);
        }

        @Override
        public FieldVisitor visitField(final int access, final String name, final String descriptor,
                                       final String signature, final Object value) {
            if ((access & Opcodes.ACC_FINAL) != 0) {
                finals.add(name);
            }
            return null;
        }

        @Override
        public MethodVisitor visitMethod(final int access, final String name, final String descriptor,
                                         final String signature, final String[] exceptions) {
            final String key = name + descriptor;
            final boolean clinit = name.equals("<clinit>");
            return new MethodVisitor(Opcodes.ASM9) {
                private String lastClass;
                /** The first class constant since the last call: an updater's or a VarHandle's owner. */
                private String firstClass;
                private String classBeforeString;
                private String lastString;
                private String lastArray;
                private Target pending;
                private Target pendingUpdater;
                private Target pendingOffset;
                /** The field a {@code getDeclaredField} named, for the offset an Unsafe takes of it next. */
                private Target declared;
                private SlotKind pendingSlots;

                @Override
                public void visitLdcInsn(final Object value) {
                    if (value instanceof Type && ((Type) value).getSort() == Type.OBJECT) {
                        lastClass = ((Type) value).getInternalName();
                        firstClass = firstClass == null ? lastClass : firstClass;
                    } else if (value instanceof Type && ((Type) value).getSort() == Type.ARRAY) {
                        lastArray = ((Type) value).getDescriptor();
                    } else if (value instanceof String) {
                        lastString = (String) value;
                        classBeforeString = lastClass;
                    }
                }

                @Override
                public void visitMethodInsn(final int opcode, final String owner, final String name,
                                            final String descriptor, final boolean isInterface) {
                    if (clinit && owner.equals(LOOKUP) && classBeforeString != null && lastString != null
                        && (name.equals("findVarHandle") || name.equals("findStaticVarHandle"))) {
                        pending = new Target(classBeforeString, lastString, name.equals("findStaticVarHandle"));
                    } else if (clinit && owner.equals(HANDLES) && name.equals("arrayElementVarHandle") && lastArray != null) {
                        pendingSlots = SlotKind.ofArray(lastArray);
                    } else if (clinit && FIELD_UPDATERS.contains(owner) && name.equals("newUpdater") && firstClass != null
                        && lastString != null) {
                        pendingUpdater = new Target(firstClass, lastString, false);
                    } else if (clinit && owner.equals("java/lang/Class") && name.equals("getDeclaredField") && lastClass != null
                        && lastString != null) {
                        declared = new Target(lastClass, lastString, false);
                    } else if (clinit && name.equals("objectFieldOffset") && declared != null) {
                        pendingOffset = declared;
                        declared = null;
                    } else if (clinit && name.equals("fieldOffset") && descriptor.equals("(Ljava/lang/Class;Ljava/lang/String;)J")
                        && firstClass != null && lastString != null) {
                        // JCTools' UnsafeAccess.fieldOffset(Class, String), and helpers shaped like it
                        pendingOffset = new Target(firstClass, lastString, false);
                    }
                    firstClass = null;
                }

                @Override
                public void visitFieldInsn(final int opcode, final String owner, final String name, final String descriptor) {
                    if (!clinit || opcode != Opcodes.PUTSTATIC) {
                        return;
                    }
                    if (descriptor.equals("L" + VAR_HANDLE + ";") && pending != null) {
                        handles.put(owner + '.' + name, pending);
                        pending = null;
                    } else if (descriptor.equals("L" + VAR_HANDLE + ";") && pendingSlots != null) {
                        slotHandles.put(owner + '.' + name, pendingSlots);
                        pendingSlots = null;
                    } else if (descriptor.length() > 2 && FIELD_UPDATERS.contains(descriptor.substring(1, descriptor.length() - 1))
                        && pendingUpdater != null) {
                        updaters.put(owner + '.' + name, pendingUpdater);
                        pendingUpdater = null;
                    } else if (descriptor.equals("J") && pendingOffset != null) {
                        offsets.put(owner + '.' + name, pendingOffset);
                        pendingOffset = null;
                    }
                }

                @Override
                public void visitMaxs(final int maxStack, final int locals) {
                    maxLocals.put(key, locals);
                }
            };
        }
    }

    /** Second pass: the counting calls. */
    private final class Rewrite extends ClassVisitor {
        private final String className;
        private final Scan scan;
        private final ClassLoader loader;
        /** Whether the class file can hold {@code invokedynamic} (Java 7 and later). */
        private boolean linksDynamically;
        boolean changed;
        /** What this class does that is not counted, by {@link Uncounted.Kind}. */
        final int[] uncounted = new int[Uncounted.Kind.values().length];

        Rewrite(final ClassVisitor next, final String className, final Scan scan, final ClassLoader loader) {
            super(Opcodes.ASM9, next);
            this.className = className;
            this.scan = scan;
            this.loader = loader;
        }

        @Override
        public void visit(final int version, final int access, final String name, final String signature,
                          final String superName, final String[] interfaces) {
            linksDynamically = (version & 0xFFFF) >= Opcodes.V1_7;
            super.visit(version, access, name, signature, superName, interfaces);
        }

        @Override
        public MethodVisitor visitMethod(final int access, final String name, final String descriptor,
                                         final String signature, final String[] exceptions) {
            final MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
            if (name.equals("<init>") || name.equals("<clinit>")
                || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
                return next;
            }
            final int firstFree = scan.maxLocals.getOrDefault(name + descriptor, 0);
            final int synchronizedMethod = (access & Opcodes.ACC_SYNCHRONIZED) != 0 ? 1 : 0;
            final String method = className.replace('/', '.') + '.' + name;
            return new MethodVisitor(Opcodes.ASM9, next) {
                private final ArraySource arrays = new ArraySource((access & Opcodes.ACC_STATIC) != 0, descriptor);
                private Target handle;
                private SlotKind slotHandle;
                private Target updater;
                private Target offset;
                /** Monitors and j.u.c. locks held at this point, in the code's order (javac's shapes). */
                private int guard = synchronizedMethod;
                /**
                 * The guard before a tryLock whose result is the next instruction's operand, or
                 * {@link #NOT_TRIED}: a tryLock guards only the path on which it succeeded, which
                 * the branch on its result tells (javac's {@code if (lock.tryLock())} and
                 * {@code if (!lock.tryLock()) return;}). Any other use of the result guards nothing.
                 */
                private int tried = NOT_TRIED;
                /** The guard to restore where a tryLock's failed path begins, by its label. */
                private final Map<Label, Integer> failedAt = new HashMap<>();
                /** The guard a tryLock's succeeded path holds, by its label, when only the branch reaches it. */
                private final Map<Label, Integer> succeededAt = new HashMap<>();
                /** The last instruction left the method or jumped away: the code after it is reached only by a jump. */
                private boolean exited;
                /**
                 * The previous instruction was a DUP. javac compiles {@code o.f++} and {@code o.f op= x}
                 * as DUP, GETFIELD f, ..., PUTFIELD f: the write is counted, and the read of the same
                 * field by the same thread just before it tells the verdicts nothing, so it is not,
                 * which halves what an open window costs such code.
                 */
                private boolean afterDup;
                /**
                 * The previous instruction was a DUP2: javac compiles {@code a[i]++} and {@code a[i] op= x}
                 * as DUP2, xALOAD, ..., xASTORE, whose read is left out as a field's is after a DUP.
                 */
                private boolean afterDup2;

                @Override
                public void visitInsn(final int opcode) {
                    tried = NOT_TRIED;
                    exited = opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN || opcode == Opcodes.ATHROW;
                    final SlotKind element = SlotKind.ofInstruction(opcode);
                    if (element != null) {
                        countElement(opcode, element);
                    } else if (opcode == Opcodes.DUP) {
                        arrays.duplicated();
                    } else if (opcode == Opcodes.ARRAYLENGTH) {
                        arrays.indexed();
                    } else if (opcode == Opcodes.ARETURN || opcode == Opcodes.ATHROW || opcode == Opcodes.POP
                        || opcode == Opcodes.MONITORENTER || opcode == Opcodes.MONITOREXIT) {
                        arrays.lost();
                    } else {
                        arrays.other();
                    }
                    afterDup2 = opcode == Opcodes.DUP2;
                    if (opcode == Opcodes.MONITORENTER) {
                        guard++;
                    } else if (opcode == Opcodes.MONITOREXIT) {
                        guard = Math.max(synchronizedMethod, guard - 1);
                    }
                    super.visitInsn(opcode);
                    if (opcode == Opcodes.MONITORENTER) {
                        lockCall("held", "()V");
                    } else if (opcode == Opcodes.MONITOREXIT) {
                        lockCall("released", "()V");
                    }
                    afterDup = opcode == Opcodes.DUP;
                }

                @Override
                public void visitVarInsn(final int opcode, final int var) {
                    afterDup = false;
                    tried = NOT_TRIED;
                    afterDup2 = false;
                    if (opcode == Opcodes.ALOAD) {
                        arrays.load(var);
                    } else if (opcode == Opcodes.ASTORE) {
                        arrays.store(var);
                    } else {
                        arrays.other();
                    }
                    super.visitVarInsn(opcode, var);
                }

                @Override
                public void visitIntInsn(final int opcode, final int operand) {
                    afterDup = false;
                    tried = NOT_TRIED;
                    afterDup2 = false;
                    if (opcode == Opcodes.NEWARRAY) {
                        arrays.allocated();
                    } else {
                        arrays.other();
                    }
                    super.visitIntInsn(opcode, operand);
                }

                @Override
                public void visitTypeInsn(final int opcode, final String type) {
                    afterDup = false;
                    tried = NOT_TRIED;
                    afterDup2 = false;
                    if (opcode == Opcodes.ANEWARRAY) {
                        arrays.allocated();
                    } else if (opcode == Opcodes.NEW) {
                        arrays.other();
                    } else {
                        // a cast or instanceof of an array the code order followed: the same array, or a boolean
                        arrays.lost();
                    }
                    super.visitTypeInsn(opcode, type);
                }

                @Override
                public void visitInvokeDynamicInsn(final String name, final String descriptor, final Handle bootstrap,
                                                   final Object... arguments) {
                    afterDup = false;
                    tried = NOT_TRIED;
                    afterDup2 = false;
                    takesArrays(false, descriptor);
                    super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
                    arrays.returned(descriptor);
                }

                @Override
                public void visitJumpInsn(final int opcode, final Label label) {
                    afterDup = false;
                    afterDup2 = false;
                    arrays.lost();
                    if (tried != NOT_TRIED && opcode == Opcodes.IFEQ) {
                        // succeeded: falls through; failed: jumps
                        guard = tried + 1;
                        failedAt.put(label, tried);
                    } else if (tried != NOT_TRIED && opcode == Opcodes.IFNE) {
                        // failed: falls through; succeeded: jumps
                        succeededAt.put(label, tried + 1);
                    }
                    tried = NOT_TRIED;
                    exited = opcode == Opcodes.GOTO;
                    super.visitJumpInsn(opcode, label);
                }

                @Override
                public void visitLabel(final Label label) {
                    afterDup = false;
                    afterDup2 = false;
                    arrays.lost();
                    tried = NOT_TRIED;
                    final Integer failed = failedAt.remove(label);
                    final Integer succeeded = succeededAt.remove(label);
                    if (failed != null) {
                        guard = failed;
                    } else if (succeeded != null && exited) {
                        guard = succeeded;
                    }
                    exited = false;
                    super.visitLabel(label);
                }

                @Override
                public void visitLdcInsn(final Object value) {
                    afterDup = false;
                    tried = NOT_TRIED;
                    afterDup2 = false;
                    arrays.other();
                    super.visitLdcInsn(value);
                }

                @Override
                public void visitIincInsn(final int var, final int increment) {
                    afterDup = false;
                    tried = NOT_TRIED;
                    afterDup2 = false;
                    arrays.other();
                    super.visitIincInsn(var, increment);
                }

                @Override
                public void visitTableSwitchInsn(final int min, final int max, final Label dflt, final Label... labels) {
                    afterDup = false;
                    tried = NOT_TRIED;
                    afterDup2 = false;
                    arrays.lost();
                    super.visitTableSwitchInsn(min, max, dflt, labels);
                }

                @Override
                public void visitLookupSwitchInsn(final Label dflt, final int[] keys, final Label[] labels) {
                    afterDup = false;
                    tried = NOT_TRIED;
                    afterDup2 = false;
                    arrays.lost();
                    super.visitLookupSwitchInsn(dflt, keys, labels);
                }

                @Override
                public void visitMultiANewArrayInsn(final String descriptor, final int dimensions) {
                    afterDup = false;
                    tried = NOT_TRIED;
                    afterDup2 = false;
                    arrays.allocated();
                    super.visitMultiANewArrayInsn(descriptor, dimensions);
                }

                @Override
                public void visitFieldInsn(final int opcode, final String owner, final String field, final String desc) {
                    final boolean readBeforeWrite = afterDup && opcode == Opcodes.GETFIELD;
                    afterDup = false;
                    tried = NOT_TRIED;
                    afterDup2 = false;
                    if (opcode == Opcodes.GETFIELD || opcode == Opcodes.GETSTATIC) {
                        arrays.field(owner, field, desc);
                    } else {
                        arrays.lost();
                    }
                    if (!readBeforeWrite && includes(owner) && !(owner.equals(className) && scan.finals.contains(field))
                        && !field.startsWith("this$")) {
                        final int id = id(owner, field, opcode == Opcodes.GETSTATIC || opcode == Opcodes.PUTSTATIC);
                        if (id > 0) {
                            count(opcode, owner, desc, id);
                        }
                    }
                    super.visitFieldInsn(opcode, owner, field, desc);
                    if (opcode == Opcodes.GETSTATIC && desc.equals("L" + VAR_HANDLE + ";")) {
                        handle = scan.handles.get(owner + '.' + field);
                        slotHandle = scan.slotHandles.get(owner + '.' + field);
                    } else if (opcode == Opcodes.GETSTATIC && desc.equals("J")) {
                        offset = scan.offsets.get(owner + '.' + field);
                    } else if (opcode == Opcodes.GETSTATIC) {
                        updater = scan.updaters.get(owner + '.' + field);
                    }
                }

                private void count(final int opcode, final String owner, final String desc, final int id) {
                    switch (opcode) {
                        case Opcodes.GETFIELD:
                            super.visitInsn(Opcodes.DUP);
                            call(id, false);
                            break;
                        case Opcodes.GETSTATIC:
                        case Opcodes.PUTSTATIC:
                            super.visitLdcInsn(Type.getObjectType(owner));
                            call(id, opcode == Opcodes.PUTSTATIC);
                            break;
                        default:
                            if (Type.getType(desc).getSize() == 2) {
                                super.visitInsn(Opcodes.DUP2_X1);
                                super.visitInsn(Opcodes.POP2);
                                super.visitInsn(Opcodes.DUP_X2);
                            } else {
                                super.visitInsn(Opcodes.SWAP);
                                super.visitInsn(Opcodes.DUP_X1);
                            }
                            call(id, true);
                    }
                }

                @Override
                public void visitMethodInsn(final int opcode, final String owner, final String method,
                                            final String desc, final boolean isInterface) {
                    afterDup = false;
                    afterDup2 = false;
                    tried = NOT_TRIED;
                    exited = false;
                    takesArrays(owner.startsWith("["), desc);
                    final boolean tries = owner.startsWith(LOCKS) && LOCKING.contains(method)
                        && Type.getReturnType(desc).getSort() == Type.BOOLEAN;
                    if (owner.startsWith(LOCKS) && LOCKING.contains(method) && !tries) {
                        guard++;
                    } else if (owner.startsWith(LOCKS) && method.equals("unlock")) {
                        guard = Math.max(synchronizedMethod, guard - 1);
                    }
                    final Type[] args = Type.getArgumentTypes(desc);
                    if (owner.equals(VAR_HANDLE) && handle != null) {
                        final Target target = handle;
                        handle = null;
                        final int id = id(target.owner(), target.name(), target.isStatic());
                        final boolean write = !HANDLE_READS.contains(method);
                        if (id > 0 && target.isStatic()) {
                            super.visitLdcInsn(Type.getObjectType(target.owner()));
                            call(id, write);
                        } else if (id > 0 && args.length > 0 && args[0].getSort() == Type.OBJECT) {
                            countThroughArguments(desc, id, write, true);
                        }
                    } else if (owner.equals(VAR_HANDLE) && slotHandle != null) {
                        final SlotKind kind = slotHandle;
                        slotHandle = null;
                        if (args.length > 1 && args[1].getSort() == Type.INT
                            && (args[0].getSort() == Type.ARRAY || args[0].getSort() == Type.OBJECT)) {
                            countSlot(args, kind, !HANDLE_READS.contains(method), true);
                        }
                    } else if (opcode == Opcodes.INVOKEVIRTUAL && ATOMIC_ARRAYS.containsKey(owner) && args.length > 0
                        && args[0].getSort() == Type.INT) {
                        countSlot(args, ATOMIC_ARRAYS.get(owner), !ATOMIC_READS.contains(method), false);
                    } else if (opcode == Opcodes.INVOKEVIRTUAL && FIELD_UPDATERS.contains(owner) && updater != null) {
                        final Target target = updater;
                        updater = null;
                        final int id = id(target.owner(), target.name(), false);
                        if (id > 0 && args.length > 0 && args[0].getSort() == Type.OBJECT) {
                            countThroughArguments(desc, id, !method.equals("get"), true);
                        }
                    } else if (UNSAFES.contains(owner) && offset != null) {
                        final Target target = offset;
                        offset = null;
                        final int id = id(target.owner(), target.name(), false);
                        if (id > 0 && args.length > 1 && args[0].getSort() == Type.OBJECT && args[1].getSort() == Type.LONG) {
                            countThroughArguments(desc, id, !isUnsafeRead(method), true);
                        }
                    } else if (opcode == Opcodes.INVOKEVIRTUAL && ATOMICS.contains(owner) && !ATOMIC_NEITHER.contains(method)) {
                        final int id = id(owner, "value", false);
                        if (id > 0) {
                            countThroughArguments(desc, id, !ATOMIC_READS.contains(method), false);
                        }
                    } else {
                        noteUncounted(opcode, owner, method, args);
                    }
                    super.visitMethodInsn(opcode, owner, method, desc, isInterface);
                    arrays.returned(desc);
                    if (owner.startsWith(LOCKS) && LOCKING.contains(method)) {
                        if (tries) {
                            super.visitInsn(Opcodes.DUP);
                            lockCall("heldIf", "(Z)V");
                            tried = guard;
                        } else {
                            lockCall("held", "()V");
                        }
                    } else if (owner.startsWith(LOCKS) && method.equals("unlock")) {
                        lockCall("released", "()V");
                    }
                }

                /** A call that takes an array may take one the source knows: it then knows none; other calls leave it be. */
                private void takesArrays(final boolean onArray, final String desc) {
                    boolean takes = onArray;
                    for (final Type arg : Type.getArgumentTypes(desc)) {
                        takes |= arg.getSort() == Type.ARRAY;
                    }
                    if (takes) {
                        arrays.lost();
                    } else {
                        arrays.other();
                    }
                }

                /**
                 * Counts a plain array instruction as a slot of its array, named by its site: the
                 * array and the index under a store's value, which is parked in a free local and
                 * loaded back. Left alone: the read of a read-modify-write (its write is counted),
                 * an array the method made itself ({@link ArraySource}), and class files older than
                 * Java 7, whose direct calls would check a flag on every element, switched off or not.
                 */
                private void countElement(final int opcode, final SlotKind kind) {
                    final boolean store = opcode >= Opcodes.IASTORE;
                    if (!store && afterDup2) {
                        return;
                    }
                    final String source = arrays.indexed();
                    if (ArraySource.FRESH.equals(source)) {
                        return;
                    }
                    if (!linksDynamically) {
                        uncounted[Uncounted.Kind.OLD_CLASS_FILE_ARRAYS.ordinal()]++;
                        return;
                    }
                    final int site = site(source == null ? "in " + method : source);
                    if (site < 0) {
                        return;
                    }
                    final Type value = kind == SlotKind.BYTES || kind == SlotKind.CHARS || kind == SlotKind.SHORTS
                        ? Type.INT_TYPE : Type.getType(kind.storage().getComponentType());
                    if (store) {
                        super.visitVarInsn(value.getOpcode(Opcodes.ISTORE), firstFree);
                    }
                    super.visitInsn(Opcodes.DUP2);
                    super.visitLdcInsn(ArraySites.code(kind, site));
                    final String name = !store ? "slotRead" : guard > 0 ? "slotGuardedWrite" : "slotWrite";
                    super.visitInvokeDynamicInsn(name, COUNT_SLOT, LINK);
                    if (store) {
                        super.visitVarInsn(value.getOpcode(Opcodes.ILOAD), firstFree);
                    }
                    changed = true;
                }

                /** Counts a call the weaver met and cannot place, for the report to say what it did not look at. */
                private void noteUncounted(final int opcode, final String owner, final String name, final Type[] args) {
                    if (owner.equals(VAR_HANDLE) && VAR_HANDLE_ACCESS.matcher(name).matches()) {
                        uncounted[Uncounted.Kind.VAR_HANDLES.ordinal()]++;
                    } else if (opcode == Opcodes.INVOKEVIRTUAL && FIELD_UPDATERS.contains(owner)) {
                        uncounted[Uncounted.Kind.FIELD_UPDATERS.ordinal()]++;
                    } else if (UNSAFES.contains(owner) && args.length > 1 && args[0].getSort() == Type.OBJECT
                        && args[1].getSort() == Type.LONG) {
                        uncounted[Uncounted.Kind.UNSAFE_OFFSETS.ordinal()]++;
                    }
                }

                /**
                 * Tells Tally that this thread took or released a lock, so that what the methods it
                 * calls write holding it counts as guarded too, which the code's order cannot tell.
                 */
                private void lockCall(final String name, final String type) {
                    if (linksDynamically) {
                        super.visitInvokeDynamicInsn(name, type, LINK);
                    } else {
                        super.visitMethodInsn(Opcodes.INVOKESTATIC, TALLY, name, type, false);
                    }
                    changed = true;
                }

                /** Parks the arguments, counts the first argument or the receiver under them, restores them. */
                private void countThroughArguments(final String desc, final int id, final boolean write,
                                                   final boolean firstArgument) {
                    final Type[] args = Type.getArgumentTypes(desc);
                    final int[] slots = parkArguments(args);
                    if (firstArgument) {
                        super.visitVarInsn(Opcodes.ALOAD, slots[0]);
                    } else {
                        super.visitInsn(Opcodes.DUP);
                    }
                    call(id, write);
                    restoreArguments(args, slots);
                }

                /**
                 * Parks the arguments and counts a slot: the array (the first argument, or the atomic
                 * array that receives the call, under the arguments) and the index (the argument after
                 * the array, or the first), then restores them.
                 */
                private void countSlot(final Type[] args, final SlotKind kind, final boolean write, final boolean arrayArgument) {
                    final int[] slots = parkArguments(args);
                    if (arrayArgument) {
                        super.visitVarInsn(Opcodes.ALOAD, slots[0]);
                        super.visitVarInsn(Opcodes.ILOAD, slots[1]);
                    } else {
                        super.visitInsn(Opcodes.DUP);
                        super.visitVarInsn(Opcodes.ILOAD, slots[0]);
                    }
                    super.visitIntInsn(Opcodes.BIPUSH, kind.code());
                    final String name = !write ? "slotRead" : guard > 0 ? "slotGuardedWrite" : "slotWrite";
                    if (linksDynamically) {
                        super.visitInvokeDynamicInsn(name, COUNT_SLOT, LINK);
                    } else {
                        super.visitMethodInsn(Opcodes.INVOKESTATIC, TALLY, name, COUNT_SLOT, false);
                    }
                    changed = true;
                    restoreArguments(args, slots);
                }

                /** Stores the call's arguments, last first, in the free locals; returns their slots. */
                private int[] parkArguments(final Type[] args) {
                    final int[] slots = new int[args.length];
                    int next = firstFree;
                    for (int a = 0; a < args.length; a++) {
                        slots[a] = next;
                        next += args[a].getSize();
                    }
                    for (int a = args.length - 1; a >= 0; a--) {
                        super.visitVarInsn(args[a].getOpcode(Opcodes.ISTORE), slots[a]);
                    }
                    return slots;
                }

                /** Loads the parked arguments back onto the stack, in order. */
                private void restoreArguments(final Type[] args, final int[] slots) {
                    for (int a = 0; a < args.length; a++) {
                        super.visitVarInsn(args[a].getOpcode(Opcodes.ILOAD), slots[a]);
                    }
                }

                private void call(final int id, final boolean write) {
                    if (id <= Short.MAX_VALUE) {
                        super.visitIntInsn(Opcodes.SIPUSH, id);
                    } else {
                        super.visitLdcInsn(id);
                    }
                    final String kind = !write ? "read" : guard > 0 ? "guardedWrite" : "write";
                    if (linksDynamically) {
                        super.visitInvokeDynamicInsn(kind, COUNT, LINK);
                    } else {
                        super.visitMethodInsn(Opcodes.INVOKESTATIC, TALLY, kind, COUNT, false);
                    }
                    changed = true;
                }
            };
        }

        /** @return the id of a plain array instruction's site, or -1 when the table is full (warned once) */
        private int site(final String name) {
            final int id = sites.id(name);
            if (id < 0 && !sitesFull) {
                sitesFull = true;
                warnings.accept("false-sharing probe: more than " + (ArraySites.MAX - 1)
                    + " array sites in the included packages; narrow probes.falsesharing.include to count the rest");
            }
            return id;
        }

        private int id(final String owner, final String field, final boolean isStatic) {
            final int id = table.id(owner, field, isStatic, loader);
            if (id < 0 && !full) {
                full = true;
                warnings.accept("false-sharing probe: more than " + (Tally.FIELDS - 1)
                    + " fields in the included packages; narrow probes.falsesharing.include to count the rest");
            }
            return id;
        }
    }
}
