package io.mech.probes.falsesharing;

import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Writes the counting calls into a method's code, each just before the access it counts. Control
 * flow is never changed, so the stack map frames stay valid; a call's arguments are parked in
 * fresh locals above the method's own while its target is counted. In class files of Java 7 and
 * later each count is an {@code invokedynamic} linked to one of {@link Tally}'s switched call
 * sites, so between bursts the JIT compiles it to nothing; older class files call Tally's
 * methods, which check a flag each time.
 *
 * <p>Used by one weaving pass over one method, on one thread.
 */
final class CountingCode {

    private static final String TALLY = Type.getInternalName(Tally.class);
    private static final String COUNT = "(Ljava/lang/Object;I)V";
    private static final String COUNT_SLOT = "(Ljava/lang/Object;II)V";
    private static final Handle LINK = new Handle(Opcodes.H_INVOKESTATIC, TALLY, "site",
        "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/CallSite;", false);

    private final MethodVisitor out;
    /** The first local the method does not use: where arguments and stored values are parked. */
    private final int firstFree;
    private final boolean linksDynamically;
    private boolean wrote;

    /**
     * @param out              where the method's code goes
     * @param firstFree        the method's max locals
     * @param linksDynamically whether the class file can hold {@code invokedynamic} (Java 7 and later)
     */
    CountingCode(final MethodVisitor out, final int firstFree, final boolean linksDynamically) {
        this.out = out;
        this.firstFree = firstFree;
        this.linksDynamically = linksDynamically;
    }

    /** @return whether any counting call was written */
    boolean wrote() {
        return wrote;
    }

    /** Counts a field instruction's field, whose object (or class, for a static) is taken from under its operands. */
    void field(final int opcode, final String owner, final String descriptor, final int id, final boolean guarded) {
        switch (opcode) {
            case Opcodes.GETFIELD:
                out.visitInsn(Opcodes.DUP);
                count(id, false, guarded);
                break;
            case Opcodes.GETSTATIC:
            case Opcodes.PUTSTATIC:
                out.visitLdcInsn(Type.getObjectType(owner));
                count(id, opcode == Opcodes.PUTSTATIC, guarded);
                break;
            default:
                if (Type.getType(descriptor).getSize() == 2) {
                    out.visitInsn(Opcodes.DUP2_X1);
                    out.visitInsn(Opcodes.POP2);
                    out.visitInsn(Opcodes.DUP_X2);
                } else {
                    out.visitInsn(Opcodes.SWAP);
                    out.visitInsn(Opcodes.DUP_X1);
                }
                count(id, true, guarded);
        }
    }

    /** Counts a static field reached through a handle: its class stands for it. */
    void staticField(final String owner, final int id, final boolean write, final boolean guarded) {
        out.visitLdcInsn(Type.getObjectType(owner));
        count(id, write, guarded);
    }

    /** Parks a call's arguments, counts its first argument or its receiver under them, restores them. */
    void throughArguments(final Type[] args, final int id, final boolean write, final boolean guarded,
                          final boolean firstArgument) {
        final int[] slots = park(args);
        if (firstArgument) {
            out.visitVarInsn(Opcodes.ALOAD, slots[0]);
        } else {
            out.visitInsn(Opcodes.DUP);
        }
        count(id, write, guarded);
        restore(args, slots);
    }

    /**
     * Parks a call's arguments and counts a slot: the array (the first argument, or the atomic
     * array that receives the call, under the arguments) and the index (the argument after the
     * array, or the first), then restores them.
     */
    void slot(final Type[] args, final SlotKind kind, final boolean write, final boolean guarded, final boolean arrayArgument) {
        final int[] slots = park(args);
        if (arrayArgument) {
            out.visitVarInsn(Opcodes.ALOAD, slots[0]);
            out.visitVarInsn(Opcodes.ILOAD, slots[1]);
        } else {
            out.visitInsn(Opcodes.DUP);
            out.visitVarInsn(Opcodes.ILOAD, slots[0]);
        }
        out.visitIntInsn(Opcodes.BIPUSH, kind.code());
        tally(slotCall(write, guarded), COUNT_SLOT);
        restore(args, slots);
    }

    /**
     * Counts a plain array instruction (Java 7 class files and later only) as a slot of its array,
     * named by its site: the array and the index under a store's value, which is parked in a free
     * local and loaded back.
     */
    void element(final SlotKind kind, final boolean store, final int siteCode, final boolean guarded) {
        final Type value = kind == SlotKind.BYTES || kind == SlotKind.CHARS || kind == SlotKind.SHORTS
            ? Type.INT_TYPE : Type.getType(kind.storage().getComponentType());
        if (store) {
            out.visitVarInsn(value.getOpcode(Opcodes.ISTORE), firstFree);
        }
        out.visitInsn(Opcodes.DUP2);
        out.visitLdcInsn(siteCode);
        tally(slotCall(store, guarded), COUNT_SLOT);
        if (store) {
            out.visitVarInsn(value.getOpcode(Opcodes.ILOAD), firstFree);
        }
    }

    /**
     * Tells Tally that this thread took ({@code held}) or released ({@code released}) a lock, so
     * that what the methods it calls write holding it counts as guarded too, which the code's
     * order cannot tell.
     */
    void lock(final String call) {
        tally(call, "()V");
    }

    /** Tells Tally the result of the tryLock just made, which stays on the stack. */
    void tried() {
        out.visitInsn(Opcodes.DUP);
        tally("heldIf", "(Z)V");
    }

    /** Calls one of Tally's methods: through its switched call site where the class file can link one. */
    private void tally(final String name, final String type) {
        if (linksDynamically) {
            out.visitInvokeDynamicInsn(name, type, LINK);
        } else {
            out.visitMethodInsn(Opcodes.INVOKESTATIC, TALLY, name, type, false);
        }
        wrote = true;
    }

    private static String slotCall(final boolean write, final boolean guarded) {
        return !write ? "slotRead" : guarded ? "slotGuardedWrite" : "slotWrite";
    }

    /** Stores the call's arguments, last first, in the free locals; returns their slots. */
    private int[] park(final Type[] args) {
        final int[] slots = new int[args.length];
        int next = firstFree;
        for (int a = 0; a < args.length; a++) {
            slots[a] = next;
            next += args[a].getSize();
        }
        for (int a = args.length - 1; a >= 0; a--) {
            out.visitVarInsn(args[a].getOpcode(Opcodes.ISTORE), slots[a]);
        }
        return slots;
    }

    /** Loads the parked arguments back onto the stack, in order. */
    private void restore(final Type[] args, final int[] slots) {
        for (int a = 0; a < args.length; a++) {
            out.visitVarInsn(args[a].getOpcode(Opcodes.ILOAD), slots[a]);
        }
    }

    private void count(final int id, final boolean write, final boolean guarded) {
        if (id <= Short.MAX_VALUE) {
            out.visitIntInsn(Opcodes.SIPUSH, id);
        } else {
            out.visitLdcInsn(id);
        }
        tally(!write ? "read" : guarded ? "guardedWrite" : "write", COUNT);
    }
}
