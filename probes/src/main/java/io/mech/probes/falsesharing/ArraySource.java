package io.mech.probes.falsesharing;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Which array a method's array instruction indexes, as far as the order of the code tells: the
 * field read just before (directly, or through a local it was stored in), or a new array the
 * method made itself, or neither (an argument, a call's result, which are followed too, so as not
 * to be taken for a field read before them), when only the method can name the site. It follows
 * javac's shapes, not every stack: what it loses at a branch target or a call only makes a site
 * read as the method's.
 *
 * <p>A method's array the method allocated and keeps in a local is its own, a buffer no other
 * thread touches while the method runs; the weaver counts none of its elements.
 *
 * <p>Used by one weaving pass over one method, on one thread.
 */
final class ArraySource extends CodeObserver {

    /** What a new array stands for on the stack and in a local. */
    static final String FRESH = "";
    /** An array from an argument or a call: known to be an array, its origin not. */
    private static final String UNKNOWN = "?";

    /** Array references on the stack whose origin is known, most recent last. */
    private final Deque<String> stack = new ArrayDeque<>();
    /** Locals holding an array whose origin is known: a field's name, or {@link #FRESH}. */
    private final Map<Integer, String> locals = new HashMap<>();
    /** The previous instruction left a new array on top (a NEWARRAY, or an initialiser's store). */
    private boolean freshOnTop;
    /**
     * The previous instruction was a DUP2: in javac's {@code a[i] op= x} it copies the array and
     * the index for the load, and the array stays on the stack for the store.
     */
    private boolean copied;

    /**
     * @param access     the method's access flags: local 0 of an instance method is {@code this}
     * @param descriptor the method's descriptor: its array arguments' locals hold arrays of unknown origin
     * @param next       the next observer, or null
     */
    ArraySource(final int access, final String descriptor, final MethodVisitor next) {
        super(next);
        int local = (access & Opcodes.ACC_STATIC) != 0 ? 0 : 1;
        for (final Type argument : Type.getArgumentTypes(descriptor)) {
            if (argument.getSort() == Type.ARRAY) {
                locals.put(local, UNKNOWN);
            }
            local += argument.getSize();
        }
    }

    /** @return the array the next array instruction takes: its field's name, {@link #FRESH}, or null when unknown */
    String source() {
        final String source = stack.peek();
        return UNKNOWN.equals(source) ? null : source;
    }

    @Override
    void other() {
        freshOnTop = false;
        copied = false;
    }

    @Override
    public void visitInsn(final int opcode) {
        final boolean freshBefore = freshOnTop;
        final boolean copiedBefore = copied;
        super.visitInsn(opcode);
        if (SlotKind.ofInstruction(opcode) != null) {
            if (!(copiedBefore && opcode < Opcodes.IASTORE)) {
                indexed();
            }
        } else if (opcode == Opcodes.DUP && freshBefore) {
            // an array initialiser's, which keeps the new array for its next element
            stack.push(FRESH);
        } else if (opcode == Opcodes.ARRAYLENGTH) {
            indexed();
        } else if (opcode == Opcodes.ARETURN || opcode == Opcodes.ATHROW || opcode == Opcodes.POP
            || opcode == Opcodes.MONITORENTER || opcode == Opcodes.MONITOREXIT) {
            lost();
        }
        copied = opcode == Opcodes.DUP2;
    }

    @Override
    public void visitVarInsn(final int opcode, final int var) {
        super.visitVarInsn(opcode, var);
        if (opcode == Opcodes.ALOAD) {
            final String known = locals.get(var);
            if (known != null) {
                stack.push(known);
            }
        } else if (opcode == Opcodes.ASTORE) {
            if (stack.isEmpty()) {
                locals.remove(var);
            } else {
                locals.put(var, stack.pop());
            }
        }
    }

    @Override
    public void visitIntInsn(final int opcode, final int operand) {
        super.visitIntInsn(opcode, operand);
        if (opcode == Opcodes.NEWARRAY) {
            allocated();
        }
    }

    @Override
    public void visitTypeInsn(final int opcode, final String type) {
        super.visitTypeInsn(opcode, type);
        if (opcode == Opcodes.ANEWARRAY) {
            allocated();
        } else if (opcode != Opcodes.NEW) {
            // a cast or instanceof of an array the code order followed: the same array, or a boolean
            lost();
        }
    }

    @Override
    public void visitFieldInsn(final int opcode, final String owner, final String name, final String descriptor) {
        super.visitFieldInsn(opcode, owner, name, descriptor);
        if (opcode != Opcodes.GETFIELD && opcode != Opcodes.GETSTATIC) {
            lost();
        } else if (descriptor.startsWith("[")) {
            stack.push(owner.replace('/', '.') + '.' + name);
        }
    }

    @Override
    public void visitMethodInsn(final int opcode, final String owner, final String name, final String descriptor,
                                final boolean isInterface) {
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        called(owner.startsWith("["), descriptor);
    }

    @Override
    public void visitInvokeDynamicInsn(final String name, final String descriptor, final Handle bootstrap,
                                       final Object... arguments) {
        super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
        called(false, descriptor);
    }

    @Override
    public void visitJumpInsn(final int opcode, final Label label) {
        super.visitJumpInsn(opcode, label);
        lost();
    }

    @Override
    public void visitLabel(final Label label) {
        super.visitLabel(label);
        lost();
    }

    @Override
    public void visitTableSwitchInsn(final int min, final int max, final Label dflt, final Label... labels) {
        super.visitTableSwitchInsn(min, max, dflt, labels);
        lost();
    }

    @Override
    public void visitLookupSwitchInsn(final Label dflt, final int[] keys, final Label[] labels) {
        super.visitLookupSwitchInsn(dflt, keys, labels);
        lost();
    }

    @Override
    public void visitMultiANewArrayInsn(final String descriptor, final int dimensions) {
        super.visitMultiANewArrayInsn(descriptor, dimensions);
        allocated();
    }

    /** An array instruction or ARRAYLENGTH took its array. */
    private void indexed() {
        freshOnTop = FRESH.equals(stack.poll());
    }

    private void allocated() {
        stack.push(FRESH);
        freshOnTop = true;
    }

    /**
     * A call that takes an array may take one this source knows: it then knows none; other calls
     * leave it be. An array the call returns is on the stack, of unknown origin.
     */
    private void called(final boolean onArray, final String descriptor) {
        boolean takes = onArray;
        for (final Type argument : Type.getArgumentTypes(descriptor)) {
            takes |= argument.getSort() == Type.ARRAY;
        }
        if (takes) {
            lost();
        }
        if (Type.getReturnType(descriptor).getSort() == Type.ARRAY) {
            stack.push(UNKNOWN);
        }
    }

    /** A branch target, or an instruction that may take an array elsewhere: what is on the stack is no longer known. */
    private void lost() {
        stack.clear();
        freshOnTop = false;
    }
}
