package io.mech.probes.falsesharing;

import java.util.regex.Pattern;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Weaves one method: before each access to a counted field or slot, a counting call
 * ({@link CountingCode}); after each lock taken or released, a word to {@link Tally}. What an
 * access reaches, and whether a lock guards it, it learns from a chain of recognisers that watch
 * the original instructions in order: {@link LockGuard}, {@link ReadBeforeWrite},
 * {@link ArraySource} and {@link HandleUse}. It asks them before an instruction, then tells them
 * the instruction.
 *
 * <p>Used by one weaving pass over one method, on one thread.
 */
final class CountingMethod extends MethodVisitor {

    /** A VarHandle's access modes: get, set, compareAndSet, getAndAdd, weakCompareAndSetPlain and the rest. */
    private static final Pattern VAR_HANDLE_ACCESS = Pattern.compile("(get|set|compare|weak).*");

    private final ClassRewrite rewrite;
    /** The method's name as array sites of its own are named: {@code pkg.Class.method}. */
    private final String method;
    private final CountingCode code;
    private final LockGuard guard;
    private final ReadBeforeWrite reads;
    private final ArraySource arrays;
    private final HandleUse handles;

    CountingMethod(final MethodVisitor next, final ClassRewrite rewrite, final int access, final String name,
                   final String descriptor) {
        super(Opcodes.ASM9, next);
        this.rewrite = rewrite;
        this.method = rewrite.className().replace('/', '.') + '.' + name;
        this.code = new CountingCode(next, rewrite.scan().firstFree(name + descriptor), rewrite.linksDynamically());
        this.handles = new HandleUse(rewrite.scan().statics(), null);
        this.arrays = new ArraySource(access, descriptor, handles);
        this.reads = new ReadBeforeWrite(arrays);
        this.guard = new LockGuard(access, reads);
    }

    @Override
    public void visitInsn(final int opcode) {
        final SlotKind element = SlotKind.ofInstruction(opcode);
        if (element != null) {
            countElement(opcode, element);
        }
        super.visitInsn(opcode);
        if (opcode == Opcodes.MONITORENTER) {
            code.lock("held");
        } else if (opcode == Opcodes.MONITOREXIT) {
            code.lock("released");
        }
        guard.visitInsn(opcode);
    }

    @Override
    public void visitFieldInsn(final int opcode, final String owner, final String field, final String descriptor) {
        if (!reads.isFieldRead(opcode) && rewrite.includes(owner)
            && !(owner.equals(rewrite.className()) && rewrite.scan().isFinal(field)) && !field.startsWith("this$")) {
            final int id = rewrite.fieldId(owner, field, opcode == Opcodes.GETSTATIC || opcode == Opcodes.PUTSTATIC);
            if (id > 0) {
                code.field(opcode, owner, descriptor, id, guard.held());
            }
        }
        super.visitFieldInsn(opcode, owner, field, descriptor);
        guard.visitFieldInsn(opcode, owner, field, descriptor);
    }

    @Override
    public void visitMethodInsn(final int opcode, final String owner, final String name, final String descriptor,
                                final boolean isInterface) {
        countCall(opcode, owner, name, descriptor);
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        switch (LockGuard.Call.of(owner, name, descriptor)) {
            case LOCK:
                code.lock("held");
                break;
            case TRY_LOCK:
                code.tried();
                break;
            case UNLOCK:
                code.lock("released");
                break;
            default:
                break;
        }
        guard.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }

    @Override
    public void visitEnd() {
        if (code.wrote()) {
            rewrite.noteChanged();
        }
        super.visitEnd();
    }

    /**
     * Counts a call that reaches a field or slot: through a static VarHandle, an atomic array, a
     * field updater, an Unsafe with a known offset, or an atomic's {@code value}. A call on a
     * VarHandle, an updater or an Unsafe that cannot be tied to one is noted as uncounted.
     */
    private void countCall(final int opcode, final String owner, final String name, final String descriptor) {
        final Type[] args = Type.getArgumentTypes(descriptor);
        final boolean held = guard.held();
        if (owner.equals(AccessApis.VAR_HANDLE) && handles.handle() != null) {
            final FieldTarget target = handles.handle();
            final int id = rewrite.fieldId(target.owner(), target.name(), target.isStatic());
            final boolean write = !AccessApis.HANDLE_READS.contains(name);
            if (id > 0 && target.isStatic()) {
                code.staticField(target.owner(), id, write, held);
            } else if (id > 0 && args.length > 0 && args[0].getSort() == Type.OBJECT) {
                code.throughArguments(args, id, write, held, true);
            }
        } else if (owner.equals(AccessApis.VAR_HANDLE) && handles.slotHandle() != null) {
            if (args.length > 1 && args[1].getSort() == Type.INT
                && (args[0].getSort() == Type.ARRAY || args[0].getSort() == Type.OBJECT)) {
                code.slot(args, handles.slotHandle(), !AccessApis.HANDLE_READS.contains(name), held, true);
            }
        } else if (opcode == Opcodes.INVOKEVIRTUAL && AccessApis.ATOMIC_ARRAYS.containsKey(owner) && args.length > 0
            && args[0].getSort() == Type.INT) {
            code.slot(args, AccessApis.ATOMIC_ARRAYS.get(owner), !AccessApis.ATOMIC_READS.contains(name), held, false);
        } else if (opcode == Opcodes.INVOKEVIRTUAL && AccessApis.FIELD_UPDATERS.contains(owner) && handles.updater() != null) {
            final FieldTarget target = handles.updater();
            final int id = rewrite.fieldId(target.owner(), target.name(), false);
            if (id > 0 && args.length > 0 && args[0].getSort() == Type.OBJECT) {
                code.throughArguments(args, id, !name.equals("get"), held, true);
            }
        } else if (AccessApis.UNSAFES.contains(owner) && handles.offset() != null) {
            final FieldTarget target = handles.offset();
            final int id = rewrite.fieldId(target.owner(), target.name(), false);
            if (id > 0 && args.length > 1 && args[0].getSort() == Type.OBJECT && args[1].getSort() == Type.LONG) {
                code.throughArguments(args, id, !AccessApis.isUnsafeRead(name), held, true);
            }
        } else if (opcode == Opcodes.INVOKEVIRTUAL && AccessApis.ATOMICS.contains(owner) && !AccessApis.ATOMIC_NEITHER.contains(name)) {
            final int id = rewrite.fieldId(owner, "value", false);
            if (id > 0) {
                code.throughArguments(args, id, !AccessApis.ATOMIC_READS.contains(name), held, false);
            }
        } else if (owner.equals(AccessApis.VAR_HANDLE) && VAR_HANDLE_ACCESS.matcher(name).matches()) {
            rewrite.noteUncounted(Uncounted.Kind.VAR_HANDLES);
        } else if (opcode == Opcodes.INVOKEVIRTUAL && AccessApis.FIELD_UPDATERS.contains(owner)) {
            rewrite.noteUncounted(Uncounted.Kind.FIELD_UPDATERS);
        } else if (AccessApis.UNSAFES.contains(owner) && args.length > 1 && args[0].getSort() == Type.OBJECT
            && args[1].getSort() == Type.LONG) {
            rewrite.noteUncounted(Uncounted.Kind.UNSAFE_OFFSETS);
        }
    }

    /**
     * Counts a plain array instruction as a slot of its array, named by its site. Left alone: the
     * read of a read-modify-write (its write is counted), an array the method made itself, and
     * class files older than Java 7, whose direct calls would check a flag on every element,
     * switched off or not.
     */
    private void countElement(final int opcode, final SlotKind kind) {
        final boolean store = opcode >= Opcodes.IASTORE;
        if (!store && reads.isElementRead()) {
            return;
        }
        final String source = arrays.source();
        if (ArraySource.FRESH.equals(source)) {
            return;
        }
        if (!rewrite.linksDynamically()) {
            rewrite.noteUncounted(Uncounted.Kind.OLD_CLASS_FILE_ARRAYS);
            return;
        }
        final int site = rewrite.siteId(source == null ? "in " + method : source);
        if (site >= 0) {
            code.element(kind, store, ArraySites.code(kind, site), guard.held());
        }
    }

    @Override
    public void visitVarInsn(final int opcode, final int var) {
        super.visitVarInsn(opcode, var);
        guard.visitVarInsn(opcode, var);
    }

    @Override
    public void visitIntInsn(final int opcode, final int operand) {
        super.visitIntInsn(opcode, operand);
        guard.visitIntInsn(opcode, operand);
    }

    @Override
    public void visitTypeInsn(final int opcode, final String type) {
        super.visitTypeInsn(opcode, type);
        guard.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitInvokeDynamicInsn(final String name, final String descriptor, final Handle bootstrap,
                                       final Object... arguments) {
        super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
        guard.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
    }

    @Override
    public void visitJumpInsn(final int opcode, final Label label) {
        super.visitJumpInsn(opcode, label);
        guard.visitJumpInsn(opcode, label);
    }

    @Override
    public void visitLabel(final Label label) {
        super.visitLabel(label);
        guard.visitLabel(label);
    }

    @Override
    public void visitLdcInsn(final Object value) {
        super.visitLdcInsn(value);
        guard.visitLdcInsn(value);
    }

    @Override
    public void visitIincInsn(final int var, final int increment) {
        super.visitIincInsn(var, increment);
        guard.visitIincInsn(var, increment);
    }

    @Override
    public void visitTableSwitchInsn(final int min, final int max, final Label dflt, final Label... labels) {
        super.visitTableSwitchInsn(min, max, dflt, labels);
        guard.visitTableSwitchInsn(min, max, dflt, labels);
    }

    @Override
    public void visitLookupSwitchInsn(final Label dflt, final int[] keys, final Label[] labels) {
        super.visitLookupSwitchInsn(dflt, keys, labels);
        guard.visitLookupSwitchInsn(dflt, keys, labels);
    }

    @Override
    public void visitMultiANewArrayInsn(final String descriptor, final int dimensions) {
        super.visitMultiANewArrayInsn(descriptor, dimensions);
        guard.visitMultiANewArrayInsn(descriptor, dimensions);
    }
}
