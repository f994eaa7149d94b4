package io.mech.probes.queues;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.List;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.FieldVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Adds a slot field to each queue class as it loads (an included application class, or one of
 * the JDK's counted queues when the agent starts before it loads, as in premain), so that its
 * woven counting finds its counters by a field load rather than by the queue's identity hash
 * ({@link QueueBridge}). A field can be added only when a class is defined, never when it is
 * retransformed; so this transformer is registered as not retransformation-capable, and the JVM
 * keeps its output as the base every later retransformation starts from. The calls
 * {@link QueueWeaver} weaves around the field can then come and go with the probe while the
 * field stays. Classes loaded before the probe have no field and count by hash.
 *
 * <p>The field is private, transient and synthetic: left out of a class's default
 * serialVersionUID (so serialised data still reads across JVMs with and without mech; the JDK's
 * queues declare theirs anyway), and of what reflection-based mappers that skip synthetic members
 * see. The JDK's queues have no field offsets known to the VM or held in Unsafe constants that a
 * new field could shift: the offsets they take are looked up when the class initialises. A class
 * redefined later (a debugger's hot swap) keeps the field, since dropping it would fail the
 * redefinition.
 */
final class SlotField implements ClassFileTransformer {

    /** The field's name: {@code $} keeps it out of any name javac gives. */
    static final String NAME = "mech$slot";
    static final String DESCRIPTOR = "I";

    private final QueueWeaver weaver;
    volatile Throwable failure;

    SlotField(final QueueWeaver weaver) {
        this.weaver = weaver;
    }

    @Override
    public byte[] transform(final Module module, final ClassLoader loader, final String className,
                            final Class<?> redefined, final ProtectionDomain domain, final byte[] classFile) {
        if (className == null || (loader == null ? !jdkQueue(className) : !weaver.applicationCandidate(className, classFile))) {
            return null;
        }
        try {
            final boolean wanted = redefined != null ? declares(redefined)
                : loader == null || weaver.applicationKind(loader, className, null, classFile) == QueueTypes.Kind.QUEUE;
            return wanted ? add(classFile) : null;
        } catch (final Throwable e) {
            failure = e;
            return null;
        }
    }

    /** @return whether a boot class is one of the JDK's queues the weaver counts */
    private static boolean jdkQueue(final String className) {
        final List<String> dequeues = QueueWeaver.JDK.get(className);
        return dequeues != null && !dequeues.isEmpty();
    }

    private static boolean declares(final Class<?> type) {
        try {
            type.getDeclaredField(NAME);
            return true;
        } catch (final NoSuchFieldException e) {
            return false;
        }
    }

    private static byte[] add(final byte[] classFile) {
        final ClassReader reader = new ClassReader(classFile);
        if ((reader.getAccess() & Opcodes.ACC_INTERFACE) != 0 || "java/lang/Record".equals(reader.getSuperName())) {
            return null;
        }
        final ClassWriter writer = new ClassWriter(reader, 0);
        final boolean[] present = new boolean[1];
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public FieldVisitor visitField(final int access, final String name, final String descriptor,
                                           final String signature, final Object value) {
                present[0] |= name.equals(NAME);
                return super.visitField(access, name, descriptor, signature, value);
            }

            @Override
            public void visitEnd() {
                if (!present[0]) {
                    super.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_TRANSIENT | Opcodes.ACC_SYNTHETIC,
                        NAME, DESCRIPTOR, null, null).visitEnd();
                }
                super.visitEnd();
            }
        }, 0);
        return present[0] ? null : writer.toByteArray();
    }
}
