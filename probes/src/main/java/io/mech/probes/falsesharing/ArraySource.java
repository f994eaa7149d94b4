package io.mech.probes.falsesharing;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import net.bytebuddy.jar.asm.Type;

/**
 * Which array a method's array instruction indexes, as far as the order of the code tells, fed
 * one instruction at a time by the weaver: the field read just before (directly, or through a
 * local it was stored in), or a new array the method made itself, or neither (an argument, a
 * call's result, which are followed too, so as not to be taken for a field read before them),
 * when only the method can name the site. It follows javac's shapes, not every
 * stack: what it loses at a branch target or a call only makes a site read as the method's.
 *
 * <p>A method's array the method allocated and keeps in a local is its own, a buffer no other
 * thread touches while the method runs; the weaver counts none of its elements.
 *
 * <p>Used by one weaving pass over one method, on one thread.
 */
final class ArraySource {

    /** What a new array stands for on the stack and in a local. */
    static final String FRESH = "";
    /** An array from an argument or a call: known to be an array, its origin not. */
    private static final String UNKNOWN = "?";

    /** Array references on the stack whose origin is known, most recent last. */
    private final Deque<String> stack = new ArrayDeque<>();
    /** Locals holding an array whose origin is known: a field's name, or {@link #FRESH}. */
    private final Map<Integer, String> locals = new HashMap<>();
    /** The previous instruction left a new array on top (a NEWARRAY, or an initialiser's store). */
    private boolean freshOnTop;

    /**
     * @param isStatic   whether the method is static (else local 0 is {@code this})
     * @param descriptor the method's descriptor: its array arguments' locals hold arrays of unknown origin
     */
    ArraySource(final boolean isStatic, final String descriptor) {
        int local = isStatic ? 0 : 1;
        for (final Type argument : Type.getArgumentTypes(descriptor)) {
            if (argument.getSort() == Type.ARRAY) {
                locals.put(local, UNKNOWN);
            }
            local += argument.getSize();
        }
    }

    /** A GETFIELD or GETSTATIC: an array-typed field's value is on the stack. */
    void field(final String owner, final String name, final String descriptor) {
        freshOnTop = false;
        if (descriptor.startsWith("[")) {
            stack.push(owner.replace('/', '.') + '.' + name);
        }
    }

    /** A call returned: an array it returned is on the stack, of unknown origin. */
    void returned(final String descriptor) {
        freshOnTop = false;
        if (Type.getReturnType(descriptor).getSort() == Type.ARRAY) {
            stack.push(UNKNOWN);
        }
    }

    /** A NEWARRAY, ANEWARRAY or MULTIANEWARRAY. */
    void allocated() {
        stack.push(FRESH);
        freshOnTop = true;
    }

    /** A DUP: an array initialiser's, which keeps the new array for its next element. */
    void duplicated() {
        if (freshOnTop) {
            stack.push(FRESH);
        }
        freshOnTop = false;
    }

    /** An ALOAD: a local whose array's origin is known goes on the stack. */
    void load(final int local) {
        freshOnTop = false;
        final String known = locals.get(local);
        if (known != null) {
            stack.push(known);
        }
    }

    /** An ASTORE: the local now holds what was on top, known or not. */
    void store(final int local) {
        freshOnTop = false;
        if (stack.isEmpty()) {
            locals.remove(local);
        } else {
            locals.put(local, stack.pop());
        }
    }

    /**
     * An array instruction or ARRAYLENGTH takes its array.
     *
     * @return the array's field, {@link #FRESH}, or null when unknown
     */
    String indexed() {
        final String source = stack.poll();
        freshOnTop = FRESH.equals(source);
        return UNKNOWN.equals(source) ? null : source;
    }

    /** A branch target, a call, or any instruction that may take an array elsewhere: what is on the stack is no longer known. */
    void lost() {
        stack.clear();
        freshOnTop = false;
    }

    /** Any other instruction. */
    void other() {
        freshOnTop = false;
    }
}
