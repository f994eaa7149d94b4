package io.mech.probes.falsesharing;

import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * A method visitor that watches a method's instructions, in code order, and changes none: the
 * weaver asks a chain of them what the code has done so far, then passes each instruction on.
 * Every instruction and label is first {@link #other()}, which forgets what it may have undone; a
 * subclass that gives an instruction a meaning reads what the previous one left, calls
 * {@code super} (which passes it on down the chain), then applies it.
 *
 * <p>Used by one weaving pass over one method, on one thread.
 */
abstract class CodeObserver extends MethodVisitor {

    /** @param next the next observer in the chain, or null */
    CodeObserver(final MethodVisitor next) {
        super(Opcodes.ASM9, next);
    }

    /** An instruction or label this observer gives no meaning of its own. */
    abstract void other();

    @Override
    public void visitInsn(final int opcode) {
        other();
        super.visitInsn(opcode);
    }

    @Override
    public void visitIntInsn(final int opcode, final int operand) {
        other();
        super.visitIntInsn(opcode, operand);
    }

    @Override
    public void visitVarInsn(final int opcode, final int var) {
        other();
        super.visitVarInsn(opcode, var);
    }

    @Override
    public void visitTypeInsn(final int opcode, final String type) {
        other();
        super.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitFieldInsn(final int opcode, final String owner, final String name, final String descriptor) {
        other();
        super.visitFieldInsn(opcode, owner, name, descriptor);
    }

    @Override
    public void visitMethodInsn(final int opcode, final String owner, final String name, final String descriptor,
                                final boolean isInterface) {
        other();
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }

    @Override
    public void visitInvokeDynamicInsn(final String name, final String descriptor, final Handle bootstrap,
                                       final Object... arguments) {
        other();
        super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
    }

    @Override
    public void visitJumpInsn(final int opcode, final Label label) {
        other();
        super.visitJumpInsn(opcode, label);
    }

    @Override
    public void visitLabel(final Label label) {
        other();
        super.visitLabel(label);
    }

    @Override
    public void visitLdcInsn(final Object value) {
        other();
        super.visitLdcInsn(value);
    }

    @Override
    public void visitIincInsn(final int var, final int increment) {
        other();
        super.visitIincInsn(var, increment);
    }

    @Override
    public void visitTableSwitchInsn(final int min, final int max, final Label dflt, final Label... labels) {
        other();
        super.visitTableSwitchInsn(min, max, dflt, labels);
    }

    @Override
    public void visitLookupSwitchInsn(final Label dflt, final int[] keys, final Label[] labels) {
        other();
        super.visitLookupSwitchInsn(dflt, keys, labels);
    }

    @Override
    public void visitMultiANewArrayInsn(final String descriptor, final int dimensions) {
        other();
        super.visitMultiANewArrayInsn(descriptor, dimensions);
    }
}
