package io.mech.probes.queues;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * What an application queue class's own methods do, read from its class file before it is woven:
 * which of its enqueue and dequeue methods to count, and whether its {@code size()} is a plain read.
 *
 * <p>Every way an element enters or leaves is counted where the class implements it: {@code offer},
 * timed {@code offer}, {@code add} and {@code put}; {@code poll}, timed {@code poll}, {@code take}
 * and {@code remove()}. A method that calls another of the same direction on its own class (a
 * {@code put} that calls {@code add}, which calls {@code offer}; a {@code remove()} that calls
 * {@code poll()}) is left to the one it calls, so no element counts twice. Counting the timed
 * {@code poll} matters most: a pool's idle workers take their jobs with it (Jetty's
 * {@code QueuedThreadPool}), and a depth counted without it drifted up by every job they took.
 *
 * <p>What is still not counted (a {@code remove(Object)}, {@code drainTo}, {@code clear}, an
 * iterator's {@code remove}) is caught by the sampler where {@code size()} is a plain read: no loop,
 * no lock, no call but an atomic's getter, so reading it on the sampler costs the host nothing.
 * Used by the weaver's thread only; one per class woven.
 */
final class QueueMethods {

    private static final String OBJECT = "Ljava/lang/Object;";
    private static final String TIMED = "JLjava/util/concurrent/TimeUnit;";
    /** Enqueue methods: name and descriptor. */
    static final List<String> ENQUEUES = List.of("offer(" + OBJECT + ")Z", "offer(" + OBJECT + TIMED + ")Z",
        "add(" + OBJECT + ")Z", "put(" + OBJECT + ")V");
    /** Dequeue methods: name and descriptor. */
    static final List<String> DEQUEUES = List.of("poll()" + OBJECT, "poll(" + TIMED + ")" + OBJECT,
        "take()" + OBJECT, "remove()" + OBJECT);
    private static final String SIZE = "size()I";
    /** Calls a plain size() may make: atomics' getters, which are field reads. */
    private static final String ATOMICS = "java/util/concurrent/atomic/";
    private static final Set<String> GETTERS = Set.of("get", "getPlain", "getOpaque", "getAcquire", "intValue", "longValue");
    /** A size() longer than this many instructions is no plain read. */
    private static final int PLAIN_SIZE_INSTRUCTIONS = 24;

    private final Set<String> counted = new HashSet<>();
    private boolean plainSize;

    private QueueMethods() {
    }

    /** Reads a class file's methods. */
    static QueueMethods of(final byte[] classFile) {
        final ClassReader reader = new ClassReader(classFile);
        final String own = reader.getClassName();
        final String superName = reader.getSuperName();
        final Map<String, Set<String>> calls = new HashMap<>();
        final QueueMethods methods = new QueueMethods();
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(final int access, final String name, final String descriptor,
                                             final String signature, final String[] exceptions) {
                final String method = name + descriptor;
                if ((access & (Opcodes.ACC_STATIC | Opcodes.ACC_ABSTRACT)) != 0) {
                    return null;
                }
                if (method.equals(SIZE)) {
                    return new PlainRead(methods);
                }
                if (!ENQUEUES.contains(method) && !DEQUEUES.contains(method)) {
                    return null;
                }
                final Set<String> called = new HashSet<>();
                calls.put(method, called);
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(final int opcode, final String owner, final String callee, final String calleeDescriptor,
                                                final boolean isInterface) {
                        if (owner.equals(own) || owner.equals(superName)) {
                            called.add(callee + calleeDescriptor);
                        }
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        for (final Map.Entry<String, Set<String>> method : calls.entrySet()) {
            final List<String> direction = ENQUEUES.contains(method.getKey()) ? ENQUEUES : DEQUEUES;
            if (method.getValue().stream().noneMatch(direction::contains)) {
                methods.counted.add(method.getKey());
            }
        }
        return methods;
    }

    /** @return whether the class's own method of that name and descriptor is counted */
    boolean counts(final String nameAndDescriptor) {
        return counted.contains(nameAndDescriptor);
    }

    /** @return whether the class declares a {@code size()} that is a plain read */
    boolean plainSize() {
        return plainSize;
    }

    /** Judges a size() method: no backward jump, no monitor, few instructions, no call but an atomic's getter. */
    private static final class PlainRead extends MethodVisitor {
        private final QueueMethods methods;
        private final Set<Label> seen = new HashSet<>();
        private int instructions;
        private boolean plain = true;

        PlainRead(final QueueMethods methods) {
            super(Opcodes.ASM9);
            this.methods = methods;
        }

        @Override
        public void visitLabel(final Label label) {
            seen.add(label);
        }

        @Override
        public void visitJumpInsn(final int opcode, final Label label) {
            instructions++;
            plain &= !seen.contains(label);
        }

        @Override
        public void visitTableSwitchInsn(final int min, final int max, final Label dflt, final Label... labels) {
            plain = false;
        }

        @Override
        public void visitLookupSwitchInsn(final Label dflt, final int[] keys, final Label[] labels) {
            plain = false;
        }

        @Override
        public void visitInsn(final int opcode) {
            instructions++;
            plain &= opcode != Opcodes.MONITORENTER;
        }

        @Override
        public void visitMethodInsn(final int opcode, final String owner, final String name, final String descriptor,
                                    final boolean isInterface) {
            instructions++;
            plain &= owner.startsWith(ATOMICS) && GETTERS.contains(name);
        }

        @Override
        public void visitInvokeDynamicInsn(final String name, final String descriptor, final net.bytebuddy.jar.asm.Handle bootstrap,
                                           final Object... arguments) {
            plain = false;
        }

        @Override
        public void visitFieldInsn(final int opcode, final String owner, final String name, final String descriptor) {
            instructions++;
        }

        @Override
        public void visitVarInsn(final int opcode, final int var) {
            instructions++;
        }

        @Override
        public void visitEnd() {
            methods.plainSize = plain && instructions <= PLAIN_SIZE_INSTRUCTIONS;
        }
    }
}
