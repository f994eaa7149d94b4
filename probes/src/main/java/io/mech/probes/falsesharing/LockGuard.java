package io.mech.probes.falsesharing;

import java.util.HashMap;
import java.util.Map;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Whether a method's code holds a monitor ({@code synchronized}) or a
 * {@code java.util.concurrent} lock at this point, as far as the order of the code tells: lock,
 * then unlock. A tryLock guards only the path on which it succeeded, which the branch on its
 * result tells (javac's {@code if (lock.tryLock())} and {@code if (!lock.tryLock()) return;}); any
 * other use of its result guards nothing.
 *
 * <p>Used by one weaving pass over one method, on one thread.
 */
final class LockGuard extends CodeObserver {

    /** What a call does to the locks held. */
    enum Call {
        LOCK, TRY_LOCK, UNLOCK, NONE;

        /** @return what a call of this method does to the locks held */
        static Call of(final String owner, final String name, final String descriptor) {
            if (!owner.startsWith(AccessApis.LOCKS)) {
                return NONE;
            }
            if (AccessApis.LOCKING.contains(name)) {
                return Type.getReturnType(descriptor).getSort() == Type.BOOLEAN ? TRY_LOCK : LOCK;
            }
            return name.equals("unlock") ? UNLOCK : NONE;
        }
    }

    /** No tryLock's result is the next instruction's operand. */
    private static final int NOT_TRIED = -1;

    /** A synchronized method holds its monitor throughout: 1, else 0. */
    private final int synchronizedMethod;
    /** Monitors and locks held here. */
    private int guard;
    /** The guard before a tryLock whose result is the next instruction's operand, or {@link #NOT_TRIED}. */
    private int tried = NOT_TRIED;
    /** The guard to restore where a tryLock's failed path begins, by its label. */
    private final Map<Label, Integer> failedAt = new HashMap<>();
    /** The guard a tryLock's succeeded path holds, by its label, when only the branch reaches it. */
    private final Map<Label, Integer> succeededAt = new HashMap<>();
    /** The last instruction left the method or jumped away: the code after it is reached only by a jump. */
    private boolean exited;

    /**
     * @param access the method's access flags
     * @param next   the next observer, or null
     */
    LockGuard(final int access, final MethodVisitor next) {
        super(next);
        synchronizedMethod = (access & Opcodes.ACC_SYNCHRONIZED) != 0 ? 1 : 0;
        guard = synchronizedMethod;
    }

    /** @return whether a lock or monitor is held at this point of the code */
    boolean held() {
        return guard > 0;
    }

    @Override
    void other() {
        tried = NOT_TRIED;
        exited = false;
    }

    @Override
    public void visitInsn(final int opcode) {
        super.visitInsn(opcode);
        exited = opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN || opcode == Opcodes.ATHROW;
        if (opcode == Opcodes.MONITORENTER) {
            guard++;
        } else if (opcode == Opcodes.MONITOREXIT) {
            released();
        }
    }

    @Override
    public void visitMethodInsn(final int opcode, final String owner, final String name, final String descriptor,
                                final boolean isInterface) {
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        switch (Call.of(owner, name, descriptor)) {
            case LOCK:
                guard++;
                break;
            case UNLOCK:
                released();
                break;
            case TRY_LOCK:
                tried = guard;
                break;
            default:
                break;
        }
    }

    @Override
    public void visitJumpInsn(final int opcode, final Label label) {
        final int triedBefore = tried;
        super.visitJumpInsn(opcode, label);
        if (triedBefore != NOT_TRIED && opcode == Opcodes.IFEQ) {
            // succeeded: falls through; failed: jumps
            guard = triedBefore + 1;
            failedAt.put(label, triedBefore);
        } else if (triedBefore != NOT_TRIED && opcode == Opcodes.IFNE) {
            // failed: falls through; succeeded: jumps
            succeededAt.put(label, triedBefore + 1);
        }
        exited = opcode == Opcodes.GOTO;
    }

    @Override
    public void visitLabel(final Label label) {
        final boolean reachedOnlyByJump = exited;
        super.visitLabel(label);
        final Integer failed = failedAt.remove(label);
        final Integer succeeded = succeededAt.remove(label);
        if (failed != null) {
            guard = failed;
        } else if (succeeded != null && reachedOnlyByJump) {
            guard = succeeded;
        }
    }

    private void released() {
        guard = Math.max(synchronizedMethod, guard - 1);
    }
}
