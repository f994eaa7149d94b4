package io.mech.probes.falsesharing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import fixture.locks.TriedLocks;
import fixture.weaving.Shapes;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

/** {@link LockGuard} read against compiled code: whether each field write is made holding a lock or monitor. */
class LockGuardTest {

    @Test
    void aMonitorGuardsWhatItsBlockWritesAndASynchronizedMethodAllItWrites() {
        assertEquals(List.of(false, true, false), heldAtWrites(Shapes.class, "synchronizedBlock"));
        assertEquals(List.of(true), heldAtWrites(Shapes.class, "synchronizedMethod"));
    }

    @Test
    void aLockGuardsFromLockToUnlock() {
        assertEquals(List.of(false, true, false), heldAtWrites(Shapes.class, "locked"));
        assertEquals(List.of(true), heldAtWrites(TriedLocks.class, "locks"));
    }

    @Test
    void aTryLockGuardsOnlyThePathOnWhichItSucceeded() {
        assertEquals(List.of(true, false), heldAtWrites(TriedLocks.class, "succeededOrNot"), "under it, then where it failed");
        assertEquals(List.of(false, true), heldAtWrites(TriedLocks.class, "bailsOut"), "before bailing out, then under it");
        assertEquals(List.of(false), heldAtWrites(TriedLocks.class, "keepsTheResult"), "a kept result guards nothing");
    }

    @Test
    void callsAreToldApartByOwnerNameAndResult() {
        final String lock = "java/util/concurrent/locks/ReentrantLock";
        assertEquals(LockGuard.Call.LOCK, LockGuard.Call.of(lock, "lock", "()V"));
        assertEquals(LockGuard.Call.LOCK, LockGuard.Call.of(lock, "lockInterruptibly", "()V"));
        assertEquals(LockGuard.Call.TRY_LOCK, LockGuard.Call.of(lock, "tryLock", "()Z"));
        assertEquals(LockGuard.Call.TRY_LOCK, LockGuard.Call.of(lock, "tryLock", "(JLjava/util/concurrent/TimeUnit;)Z"));
        assertEquals(LockGuard.Call.UNLOCK, LockGuard.Call.of("java/util/concurrent/locks/Lock", "unlock", "()V"));
        assertEquals(LockGuard.Call.NONE, LockGuard.Call.of(lock, "isLocked", "()Z"));
        assertEquals(LockGuard.Call.NONE, LockGuard.Call.of("com/example/Pool", "lock", "()V"), "a lock outside j.u.c.locks");
    }

    /** Whether the guard held a lock at each PUTFIELD of the method, in code order. */
    private static List<Boolean> heldAtWrites(final Class<?> type, final String method) {
        final List<Boolean> held = new ArrayList<>();
        MethodCode.feed(type, method, (access, descriptor) -> {
            final LockGuard guard = new LockGuard(access, null);
            return new MethodVisitor(Opcodes.ASM9, guard) {
                @Override
                public void visitFieldInsn(final int opcode, final String owner, final String name, final String desc) {
                    if (opcode == Opcodes.PUTFIELD) {
                        held.add(guard.held());
                    }
                    super.visitFieldInsn(opcode, owner, name, desc);
                }
            };
        });
        return held;
    }
}
