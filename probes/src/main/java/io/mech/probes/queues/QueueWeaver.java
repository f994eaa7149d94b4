package io.mech.probes.queues;

import io.mech.probes.MechCode;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.FieldVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Weaves calls to the bridge into queue classes, with ByteBuddy's bundled ASM and no other
 * ByteBuddy machinery (which would take about a second to load, and queues created meanwhile
 * would be missed). Three kinds of call, each inserted just before a return, without branches
 * (so the class's stack map frames stay valid):
 * <ul>
 *   <li>every constructor of a JDK queue, ThreadPoolExecutor or application queue class hands
 *       {@code this} to {@link QueueBridge#created}, or, where the class has the
 *       {@link SlotField}, keeps what {@link QueueBridge#registered} gives in it;</li>
 *   <li>each dequeue path of a JDK queue hands its result, {@code this} and the slot field to
 *       {@link QueueBridge#dequeuedLockedAt} where the queue's lock serialises it, else to
 *       {@link QueueBridge#dequeuedAt}: the private helper every removal goes through where there
 *       is one (so no path counts twice), else the public poll and take methods;</li>
 *   <li>the enqueue and dequeue methods an application queue class declares ({@link QueueMethods})
 *       count through {@link QueueBridge#offeredAt}, {@link QueueBridge#enqueuedAt} and
 *       {@link QueueBridge#dequeuedAt}.</li>
 * </ul>
 * Counting calls hand over the slot field, or 0 where the class has none.
 */
final class QueueWeaver implements ClassFileTransformer {

    /**
     * The JDK classes whose constructors register, with the dequeue methods counted (name, or name
     * and descriptor); those with any are queues, and get the {@link SlotField}.
     */
    static final Map<String, List<String>> JDK = Map.of(
        "java/util/concurrent/ArrayBlockingQueue", List.of("dequeue()Ljava/lang/Object;"),
        "java/util/concurrent/LinkedBlockingQueue", List.of("dequeue()Ljava/lang/Object;"),
        "java/util/concurrent/LinkedBlockingDeque", List.of("unlinkFirst()Ljava/lang/Object;", "unlinkLast()Ljava/lang/Object;"),
        "java/util/concurrent/PriorityBlockingQueue", List.of("dequeue()Ljava/lang/Object;"),
        "java/util/concurrent/DelayQueue", List.of("poll", "take"),
        "java/util/concurrent/ConcurrentLinkedQueue", List.of("poll"),
        "java/util/concurrent/LinkedTransferQueue", List.of("poll", "take"),
        "java/util/concurrent/ThreadPoolExecutor", List.of());

    /** The classes whose counted dequeue paths run under the queue's own lock: one thread at a time counts. */
    static final Set<String> UNDER_LOCK = Set.of(
        "java/util/concurrent/ArrayBlockingQueue",
        "java/util/concurrent/LinkedBlockingQueue",
        "java/util/concurrent/LinkedBlockingDeque",
        "java/util/concurrent/PriorityBlockingQueue",
        "java/util/concurrent/ScheduledThreadPoolExecutor$DelayedWorkQueue");

    /** Counted, never registered itself: a scheduled executor's queue, registered with its executor. */
    static final String DELAYED_WORK_QUEUE = "java/util/concurrent/ScheduledThreadPoolExecutor$DelayedWorkQueue";

    private static final String OBJECT = "java/lang/Object";
    /** Agrona's queues' package, without its subpackages. */
    private static final String AGRONA = "org/agrona/concurrent/";
    /** JCTools' queues' package, with its subpackages (atomic, unpadded). */
    private static final String JCTOOLS = "org/jctools/queues/";
    /**
     * The package of the ASM that reads class headers here: its classes load while a class is
     * transformed, and are not read themselves (a class reader asked to read itself as it loads
     * would be defined twice). Unshaded only in mech's own tests.
     */
    private static final String ASM = ClassReader.class.getPackageName().replace('.', '/') + "/";
    /** The interfaces that make a class a blocking queue. */
    private static final Set<String> BLOCKING = Set.of("java/util/concurrent/BlockingQueue",
        "java/util/concurrent/BlockingDeque", "java/util/concurrent/TransferQueue");

    private final String bridge;
    private final List<String> include;
    private final QueueTypes types;
    final Set<String> woven = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Counted queue classes (binary names) whose own {@code size()} is a plain read: see {@link QueueMethods}. */
    final Set<String> plainSize = java.util.concurrent.ConcurrentHashMap.newKeySet();
    volatile Throwable failure;

    /**
     * @param bridge  the bridge's internal name
     * @param include internal-name prefixes of application packages whose queue classes are woven
     */
    QueueWeaver(final String bridge, final List<String> include) {
        this.bridge = bridge;
        this.include = include;
        this.types = new QueueTypes();
    }

    /**
     * Whether an application class is one to weave if it is a queue: its name falls in the included
     * packages or the queue libraries' (JCTools' queues, Agrona's concurrent queues, the Disruptor's
     * ring buffer, relocated copies of them too), or it declares itself a blocking queue (a server's
     * job queue, such as Jetty's {@code BlockingArrayQueue}, in whatever package). mech's own
     * classes never are, whatever the packages (an include of {@code io} or {@code io.mech}).
     *
     * @param classFile the class's bytes; null when only its name is known
     */
    boolean applicationCandidate(final String internalName, final byte[] classFile) {
        return applicationCandidate(internalName) || classFile != null && !MechCode.contains(internalName)
            && !internalName.startsWith(ASM) && declaresBlocking(new ClassReader(classFile).getInterfaces());
    }

    /** As {@link #applicationCandidate(String, byte[])}, for a class already loaded. */
    boolean applicationCandidate(final Class<?> loaded) {
        final String name = loaded.getName().replace('.', '/');
        if (applicationCandidate(name)) {
            return true;
        }
        if (MechCode.contains(name)) {
            return false;
        }
        final Class<?>[] interfaces = loaded.getInterfaces();
        final String[] names = new String[interfaces.length];
        for (int i = 0; i < names.length; i++) {
            names[i] = interfaces[i].getName().replace('.', '/');
        }
        return declaresBlocking(names);
    }

    /** As {@link #applicationCandidate(String, byte[])}, by the name alone. */
    boolean applicationCandidate(final String internalName) {
        if (MechCode.contains(internalName)) {
            return false;
        }
        final int agrona = QueueTypes.libraryPackage(internalName, AGRONA);
        if (QueueTypes.libraryPackage(internalName, JCTOOLS) >= 0
            || QueueTypes.isLibraryType(internalName, QueueTypes.DISRUPTOR_RING_BUFFER)
            || agrona >= 0 && internalName.indexOf('/', agrona + AGRONA.length()) < 0) {
            return true;
        }
        for (final String prefix : include) {
            if (internalName.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** @return whether a class's own interfaces make it a blocking queue, whatever its package */
    private static boolean declaresBlocking(final String[] interfaces) {
        for (final String name : interfaces) {
            if (BLOCKING.contains(name)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public byte[] transform(final Module module, final ClassLoader loader, final String className,
                            final Class<?> redefined, final ProtectionDomain domain, final byte[] classFile) {
        if (className == null) {
            return null;
        }
        try {
            if (loader == null) {
                if (JDK.containsKey(className)) {
                    return weave(classFile, className, true, JDK.get(className), false);
                }
                if (className.equals(DELAYED_WORK_QUEUE)) {
                    return weave(classFile, className, false, List.of("finishPoll"), false);
                }
                return null;
            }
            if (!applicationCandidate(className, classFile)) {
                return null;
            }
            final QueueTypes.Kind kind = applicationKind(loader, className, redefined, classFile);
            if (kind == QueueTypes.Kind.NONE) {
                return null;
            }
            return weave(classFile, className, true, List.of(), kind == QueueTypes.Kind.QUEUE);
        } catch (final Throwable e) {
            failure = e;
            return null;
        }
    }

    /** @return what an included application class is, from the loaded class or its class file */
    QueueTypes.Kind applicationKind(final ClassLoader loader, final String className, final Class<?> redefined,
                                    final byte[] classFile) {
        return redefined != null ? QueueTypes.of(redefined) : types.of(loader, classFile);
    }

    private byte[] weave(final byte[] classFile, final String className, final boolean constructors,
                         final List<String> dequeues, final boolean counted) {
        final ClassReader reader = new ClassReader(classFile);
        final ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        final QueueMethods methods = counted ? QueueMethods.of(classFile) : null;
        if (methods != null && methods.plainSize()) {
            plainSize.add(className.replace('/', '.'));
        }
        // the class reader visits every field before the first method
        final boolean[] slotField = new boolean[1];
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public FieldVisitor visitField(final int access, final String name, final String descriptor,
                                           final String signature, final Object value) {
                slotField[0] |= name.equals(SlotField.NAME) && descriptor.equals(SlotField.DESCRIPTOR);
                return super.visitField(access, name, descriptor, signature, value);
            }

            @Override
            public MethodVisitor visitMethod(final int access, final String name, final String descriptor,
                                             final String signature, final String[] exceptions) {
                final MethodVisitor visitor = super.visitMethod(access, name, descriptor, signature, exceptions);
                if ((access & (Opcodes.ACC_STATIC | Opcodes.ACC_ABSTRACT | Opcodes.ACC_BRIDGE | Opcodes.ACC_SYNTHETIC)) != 0) {
                    return visitor;
                }
                final String field = slotField[0] ? className : null;
                if (constructors && name.equals("<init>")) {
                    return field != null ? new KeepTag(visitor, field)
                        : new BeforeReturn(visitor, Opcodes.RETURN, "created", "(L" + OBJECT + ";)V", null);
                }
                if (methods != null && methods.counts(name + descriptor)) {
                    if (QueueMethods.DEQUEUES.contains(name + descriptor)) {
                        return new BeforeReturn(visitor, Opcodes.ARETURN, "dequeuedAt", "(L" + OBJECT + ";L" + OBJECT + ";I)V", field);
                    }
                    return descriptor.endsWith(")V")
                        ? new BeforeReturn(visitor, Opcodes.RETURN, "enqueuedAt", "(L" + OBJECT + ";I)V", field)
                        : new BeforeReturn(visitor, Opcodes.IRETURN, "offeredAt", "(ZL" + OBJECT + ";I)V", field);
                }
                if (dequeues.contains(name) || dequeues.contains(name + descriptor)) {
                    final String counting = UNDER_LOCK.contains(className) ? "dequeuedLockedAt" : "dequeuedAt";
                    return new BeforeReturn(visitor, Opcodes.ARETURN, counting, "(L" + OBJECT + ";L" + OBJECT + ";I)V", field);
                }
                return visitor;
            }
        }, 0);
        woven.add(className);
        return writer.toByteArray();
    }

    /**
     * Inserts a bridge call before each return of one opcode: the result (if any), {@code this},
     * and for an application queue's counting, its slot field (0 where the class has none).
     */
    private final class BeforeReturn extends MethodVisitor {
        private final int returnOpcode;
        private final String method;
        private final String descriptor;
        private final String tagOwner;

        /** @param tagOwner the class declaring the slot field; null for none (a JDK class, or no field) */
        BeforeReturn(final MethodVisitor visitor, final int returnOpcode, final String method, final String descriptor,
                     final String tagOwner) {
            super(Opcodes.ASM9, visitor);
            this.returnOpcode = returnOpcode;
            this.method = method;
            this.descriptor = descriptor;
            this.tagOwner = tagOwner;
        }

        @Override
        public void visitInsn(final int opcode) {
            if (opcode == returnOpcode) {
                if (opcode != Opcodes.RETURN) {
                    super.visitInsn(Opcodes.DUP);
                }
                super.visitVarInsn(Opcodes.ALOAD, 0);
                if (tagOwner != null) {
                    super.visitVarInsn(Opcodes.ALOAD, 0);
                    super.visitFieldInsn(Opcodes.GETFIELD, tagOwner, SlotField.NAME, SlotField.DESCRIPTOR);
                } else if (descriptor.endsWith("I)V")) {
                    super.visitInsn(Opcodes.ICONST_0);
                }
                super.visitMethodInsn(Opcodes.INVOKESTATIC, bridge, method, descriptor, false);
            }
            super.visitInsn(opcode);
        }
    }

    /** Before each constructor return, registers the queue and keeps its tag in the slot field. */
    private final class KeepTag extends MethodVisitor {
        private final String owner;

        KeepTag(final MethodVisitor visitor, final String owner) {
            super(Opcodes.ASM9, visitor);
            this.owner = owner;
        }

        @Override
        public void visitInsn(final int opcode) {
            if (opcode == Opcodes.RETURN) {
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, bridge, "registered", "(L" + OBJECT + ";)I", false);
                super.visitFieldInsn(Opcodes.PUTFIELD, owner, SlotField.NAME, SlotField.DESCRIPTOR);
            }
            super.visitInsn(opcode);
        }
    }
}
