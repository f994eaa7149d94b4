package io.mech.probes.falsesharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import fixture.locks.TriedLocks;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

/**
 * A tryLock guards only the path on which it succeeded: the weaver counts a write there as
 * guarded and a write on the failed path as any other (it once took the failed path as guarded,
 * issue 34), and guards nothing when the result is kept rather than branched on.
 */
class TryLockWeavingTest {

    private static final String FIXTURE = "fixture/locks/TriedLocks";

    @Test
    void aWriteIsGuardedOnlyWhereTheLockIsHeld() throws Exception {
        final List<String> warnings = new ArrayList<>();
        final FieldWeaver weaver = new FieldWeaver(List.of("fixture/locks/"), new FieldTable(), new ArraySites(), warnings::add);
        final byte[] original;
        try (InputStream in = TriedLocks.class.getResourceAsStream("TriedLocks.class")) {
            original = in.readAllBytes();
        }
        final byte[] woven = weaver.transform(null, getClass().getClassLoader(), FIXTURE, null, null, original);
        assertNotNull(woven, "the class is woven");
        assertEquals(List.of(), warnings);
        final Map<String, List<String>> writes = writes(woven);
        assertEquals(List.of("guardedWrite", "write"), writes.get("succeededOrNot"), "under the tried lock, then where it failed");
        assertEquals(List.of("write", "guardedWrite"), writes.get("bailsOut"), "before bailing out, then under the lock");
        assertEquals(List.of("write"), writes.get("keepsTheResult"), "a kept result guards nothing");
        assertEquals(List.of("guardedWrite"), writes.get("locks"), "lock() guards");

        final Class<?> type = new ClassLoader(getClass().getClassLoader()) {
            Class<?> define() {
                return defineClass(FIXTURE.replace('/', '.'), woven, 0, woven.length);
            }
        }.define();
        final Object tried = type.getConstructor().newInstance();
        for (final String method : List.of("succeededOrNot", "bailsOut", "keepsTheResult", "locks")) {
            type.getMethod(method).invoke(tried);
        }
        assertEquals(1 + 4 + 5 + 6, type.getMethod("sum").invoke(tried), "the woven class computes what the original did");
    }

    /** The woven field-write calls of each method, in code order. */
    private static Map<String, List<String>> writes(final byte[] woven) {
        final Map<String, List<String>> writes = new HashMap<>();
        new ClassReader(woven).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(final int access, final String name, final String descriptor,
                                             final String signature, final String[] exceptions) {
                final List<String> mine = writes.computeIfAbsent(name, n -> new ArrayList<>());
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitInvokeDynamicInsn(final String call, final String type, final Handle bootstrap,
                                                       final Object... arguments) {
                        if (call.equals("write") || call.equals("guardedWrite")) {
                            mine.add(call);
                        }
                    }

                    @Override
                    public void visitMethodInsn(final int opcode, final String owner, final String call, final String desc,
                                                final boolean isInterface) {
                        if (owner.endsWith("/Tally") && (call.equals("write") || call.equals("guardedWrite"))) {
                            mine.add(call);
                        }
                    }
                };
            }
        }, 0);
        return writes;
    }
}
