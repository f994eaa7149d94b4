package io.mech.probes.falsesharing;

import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Which of the class's static handles ({@link StaticHandles}) the code loaded last, for the call
 * that goes through it: a VarHandle (a field's, or an array's elements'), a field updater, or a
 * field offset for an Unsafe. A call on a VarHandle, an updater or an Unsafe uses up the handle
 * it went through.
 *
 * <p>Used by one weaving pass over one method, on one thread.
 */
final class HandleUse extends CodeObserver {

    private final StaticHandles statics;
    private FieldTarget handle;
    private SlotKind slotHandle;
    private FieldTarget updater;
    private FieldTarget offset;

    /**
     * @param statics what the class's static initialiser kept
     * @param next    the next observer, or null
     */
    HandleUse(final StaticHandles statics, final MethodVisitor next) {
        super(next);
        this.statics = statics;
    }

    /** @return the field the VarHandle loaded last stands for, or null */
    FieldTarget handle() {
        return handle;
    }

    /** @return the array kind the element VarHandle loaded last reaches, or null */
    SlotKind slotHandle() {
        return slotHandle;
    }

    /** @return the field the updater loaded last stands for, or null */
    FieldTarget updater() {
        return updater;
    }

    /** @return the field whose offset was loaded last, or null */
    FieldTarget offset() {
        return offset;
    }

    @Override
    void other() {
        // a handle stays loaded until the call that uses it, whatever comes between
    }

    @Override
    public void visitFieldInsn(final int opcode, final String owner, final String name, final String descriptor) {
        super.visitFieldInsn(opcode, owner, name, descriptor);
        if (opcode != Opcodes.GETSTATIC) {
            return;
        }
        final String field = owner + '.' + name;
        if (descriptor.equals(AccessApis.VAR_HANDLE_DESCRIPTOR)) {
            handle = statics.handle(field);
            slotHandle = statics.slotHandle(field);
        } else if (descriptor.equals("J")) {
            offset = statics.offset(field);
        } else {
            updater = statics.updater(field);
        }
    }

    @Override
    public void visitMethodInsn(final int opcode, final String owner, final String name, final String descriptor,
                                final boolean isInterface) {
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        if (owner.equals(AccessApis.VAR_HANDLE)) {
            if (handle != null) {
                handle = null;
            } else {
                slotHandle = null;
            }
        } else if (opcode == Opcodes.INVOKEVIRTUAL && AccessApis.FIELD_UPDATERS.contains(owner)) {
            updater = null;
        } else if (AccessApis.UNSAFES.contains(owner)) {
            offset = null;
        }
    }
}
