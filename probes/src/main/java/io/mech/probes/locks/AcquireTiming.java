package io.mech.probes.locks;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Rewrites a synchronizer's class file so that its slow acquire path,
 * {@code acquire(Node, arg, shared, interruptible, timed, time)}, times itself into the bridge:
 * on entry {@code long start = Bridge.enter(node)}, and before each {@code ireturn}
 * {@code Bridge.exit(this, shared, start)}. The bridge decides everything (a null node is a fresh
 * acquisition, a start of 0 is none), so the woven code is straight-line and needs no frame of
 * its own.
 *
 * <p>Written on ASM alone, not ByteBuddy's Advice, so that the lock probe, which mech's defaults
 * switch on, does not load ByteBuddy's type descriptions and matchers: measured on an idle host
 * living 8 s, that machinery cost about 0.35 s of CPU and 15 MB of peak RSS.
 *
 * <p>{@code start} lives in a new local slot just past the method's own, so the method's locals
 * keep their slots, and every stack map frame of the method is extended to declare it: the
 * frames arrive expanded ({@link ClassReader#EXPAND_FRAMES}), and slots a frame does not list
 * are padded with TOP up to the new one. An exception thrown out of the method is not timed:
 * the slow path returns a status instead of throwing, and only an Error escapes it.
 */
final class AcquireTiming {

    private final String bridge;

    /** @param bridge the bridge's internal name, inside {@code java.util.concurrent.locks} */
    AcquireTiming(final String bridge) {
        this.bridge = bridge;
    }

    /**
     * @param classFile a synchronizer's class file
     * @return the woven class file, or null when it has no six-argument {@code acquire}
     */
    byte[] weave(final byte[] classFile) {
        final ClassReader reader = new ClassReader(classFile);
        final int[] maxLocals = {-1};
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(final int access, final String name, final String descriptor,
                                             final String signature, final String[] exceptions) {
                if (!isAcquire(name, descriptor)) {
                    return null;
                }
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMaxs(final int maxStack, final int locals) {
                        maxLocals[0] = locals;
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        if (maxLocals[0] < 0) {
            return null;
        }
        final ClassWriter writer = new ClassWriter(0);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(final int access, final String name, final String descriptor,
                                             final String signature, final String[] exceptions) {
                final MethodVisitor out = super.visitMethod(access, name, descriptor, signature, exceptions);
                return isAcquire(name, descriptor) ? new Timed(out, descriptor, maxLocals[0]) : out;
            }
        }, ClassReader.EXPAND_FRAMES);
        return writer.toByteArray();
    }

    private static boolean isAcquire(final String name, final String descriptor) {
        return name.equals("acquire") && Type.getArgumentTypes(descriptor).length == 6
            && Type.getReturnType(descriptor) == Type.INT_TYPE;
    }

    /** The acquire method, timed. */
    private final class Timed extends MethodVisitor {
        private final int start;
        private final int shared;

        Timed(final MethodVisitor out, final String descriptor, final int maxLocals) {
            super(Opcodes.ASM9, out);
            this.start = maxLocals;
            final Type[] arguments = Type.getArgumentTypes(descriptor);
            // this, node, then arg (an int, or a long in the long synchronizer) before shared
            this.shared = 1 + arguments[0].getSize() + arguments[1].getSize();
        }

        @Override
        public void visitCode() {
            super.visitCode();
            super.visitVarInsn(Opcodes.ALOAD, 1);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, bridge, "enter", "(Ljava/lang/Object;)J", false);
            super.visitVarInsn(Opcodes.LSTORE, start);
        }

        @Override
        public void visitInsn(final int opcode) {
            if (opcode == Opcodes.IRETURN) {
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitVarInsn(Opcodes.ILOAD, shared);
                super.visitVarInsn(Opcodes.LLOAD, start);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, bridge, "exit", "(Ljava/lang/Object;ZJ)V", false);
            }
            super.visitInsn(opcode);
        }

        @Override
        public void visitFrame(final int type, final int numLocal, final Object[] local, final int numStack,
                               final Object[] stack) {
            int slots = 0;
            for (int i = 0; i < numLocal; i++) {
                slots += local[i] == Opcodes.LONG || local[i] == Opcodes.DOUBLE ? 2 : 1;
            }
            final int padding = start - slots;
            final Object[] locals = new Object[numLocal + padding + 1];
            System.arraycopy(local, 0, locals, 0, numLocal);
            for (int i = 0; i < padding; i++) {
                locals[numLocal + i] = Opcodes.TOP;
            }
            locals[locals.length - 1] = Opcodes.LONG;
            super.visitFrame(type, locals.length, locals, numStack, stack);
        }

        @Override
        public void visitMaxs(final int maxStack, final int maxLocals) {
            // ireturn's value, this, shared and the long start: five slots of stack at most
            super.visitMaxs(Math.max(maxStack, 5), maxLocals + 2);
        }
    }
}
