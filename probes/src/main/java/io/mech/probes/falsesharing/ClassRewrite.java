package io.mech.probes.falsesharing;

import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The weaving's second pass over a class: each method but the constructors and the static
 * initialiser, which run once per object and not in the loops that share lines, gets its
 * counting calls ({@link CountingMethod}).
 *
 * <p>Used by one weaving pass over one class, on one thread.
 */
final class ClassRewrite extends ClassVisitor {

    private final FieldWeaver weaver;
    private final String className;
    private final ClassScan scan;
    private final ClassLoader loader;
    /** Whether the class file can hold {@code invokedynamic} (Java 7 and later). */
    private boolean linksDynamically;
    private boolean changed;
    /** What this class does that is not counted, by {@link Uncounted.Kind}. */
    private final int[] uncounted = new int[Uncounted.Kind.values().length];

    ClassRewrite(final ClassVisitor next, final FieldWeaver weaver, final String className, final ClassScan scan,
                 final ClassLoader loader) {
        super(Opcodes.ASM9, next);
        this.weaver = weaver;
        this.className = className;
        this.scan = scan;
        this.loader = loader;
    }

    @Override
    public void visit(final int version, final int access, final String name, final String signature,
                      final String superName, final String[] interfaces) {
        linksDynamically = (version & 0xFFFF) >= Opcodes.V1_7;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(final int access, final String name, final String descriptor,
                                     final String signature, final String[] exceptions) {
        final MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
        if (name.equals("<init>") || name.equals("<clinit>")
            || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
            return next;
        }
        return new CountingMethod(next, this, access, name, descriptor);
    }

    /** @return whether any method got a counting call */
    boolean changed() {
        return changed;
    }

    /** @return how many accesses of each {@link Uncounted.Kind} the class makes and the weaving could not count */
    int[] uncounted() {
        return uncounted;
    }

    String className() {
        return className;
    }

    ClassScan scan() {
        return scan;
    }

    boolean linksDynamically() {
        return linksDynamically;
    }

    /** @return whether this class's code reaching a field of {@code owner} is counted */
    boolean includes(final String owner) {
        return weaver.includes(owner);
    }

    /** @return the field's id, or -1 when the table is full */
    int fieldId(final String owner, final String field, final boolean isStatic) {
        return weaver.fieldId(owner, field, isStatic, loader);
    }

    /** @return the id of a plain array instruction's site, or -1 when the table is full */
    int siteId(final String name) {
        return weaver.siteId(name);
    }

    void noteUncounted(final Uncounted.Kind kind) {
        uncounted[kind.ordinal()]++;
    }

    void noteChanged() {
        changed = true;
    }
}
