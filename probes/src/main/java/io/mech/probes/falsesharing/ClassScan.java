package io.mech.probes.falsesharing;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.FieldVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The weaving's first pass over a class: its final fields, what its static initialiser keeps to
 * reach fields with ({@link StaticHandles}), and each method's locals, for the second pass to
 * park values above them.
 *
 * <p>Used by one weaving pass over one class, on one thread.
 */
final class ClassScan extends ClassVisitor {

    private final Set<String> finals = new HashSet<>();
    private final Map<String, Integer> maxLocals = new HashMap<>();
    private final StaticHandles statics = new StaticHandles();

    ClassScan() {
        super(Opcodes.ASM9);
    }

    /** @return whether the class declares this field final */
    boolean isFinal(final String field) {
        return finals.contains(field);
    }

    /** @return the first local the method ({@code name + descriptor}) does not use */
    int firstFree(final String method) {
        return maxLocals.getOrDefault(method, 0);
    }

    /** @return what the class's static initialiser kept */
    StaticHandles statics() {
        return statics;
    }

    @Override
    public FieldVisitor visitField(final int access, final String name, final String descriptor,
                                   final String signature, final Object value) {
        if ((access & Opcodes.ACC_FINAL) != 0) {
            finals.add(name);
        }
        return null;
    }

    @Override
    public MethodVisitor visitMethod(final int access, final String name, final String descriptor,
                                     final String signature, final String[] exceptions) {
        if (name.equals("<clinit>")) {
            return statics;
        }
        return new MethodVisitor(Opcodes.ASM9) {
            @Override
            public void visitMaxs(final int maxStack, final int locals) {
                maxLocals.put(name + descriptor, locals);
            }
        };
    }
}
