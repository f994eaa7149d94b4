package io.mech.probes.falsesharing;

import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Tells the read of a read-modify-write, which the weaver leaves out: its write is counted, and
 * the same thread's read of the same field or slot just before tells the verdicts nothing, so
 * leaving it out halves what an open window costs such code. javac compiles {@code o.f++} and
 * {@code o.f op= x} as DUP, GETFIELD f, ..., PUTFIELD f, and {@code a[i]++} and
 * {@code a[i] op= x} as DUP2, xALOAD, ..., xASTORE.
 *
 * <p>Used by one weaving pass over one method, on one thread.
 */
final class ReadBeforeWrite extends CodeObserver {

    private boolean afterDup;
    private boolean afterDup2;

    /** @param next the next observer, or null */
    ReadBeforeWrite(final MethodVisitor next) {
        super(next);
    }

    /** @return whether a field instruction of this opcode, next, is the read of a read-modify-write */
    boolean isFieldRead(final int opcode) {
        return afterDup && opcode == Opcodes.GETFIELD;
    }

    /** @return whether an array load, next, is the read of a read-modify-write */
    boolean isElementRead() {
        return afterDup2;
    }

    @Override
    void other() {
        afterDup = false;
        afterDup2 = false;
    }

    @Override
    public void visitInsn(final int opcode) {
        super.visitInsn(opcode);
        afterDup = opcode == Opcodes.DUP;
        afterDup2 = opcode == Opcodes.DUP2;
    }
}
