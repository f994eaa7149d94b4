package io.mech.probes.falsesharing;

import net.bytebuddy.jar.asm.Opcodes;

/**
 * What holds the slots woven code counts: an atomic array class, whose elements live in an
 * array of its own, or a plain array reached through an array-element VarHandle or an array
 * instruction ({@code xALOAD}, {@code xASTORE}). The code is the
 * constant woven code passes; the storage is the array whose base offset and element size place
 * the slots.
 */
enum SlotKind {
    ATOMIC_LONG_ARRAY("java.util.concurrent.atomic.AtomicLongArray", long[].class, "longs"),
    ATOMIC_INTEGER_ARRAY("java.util.concurrent.atomic.AtomicIntegerArray", int[].class, "ints"),
    ATOMIC_REFERENCE_ARRAY("java.util.concurrent.atomic.AtomicReferenceArray", Object[].class, "references"),
    LONGS("long[]", long[].class, "longs"),
    INTS("int[]", int[].class, "ints"),
    REFERENCES("Object[]", Object[].class, "references"),
    DOUBLES("double[]", double[].class, "doubles"),
    FLOATS("float[]", float[].class, "floats"),
    SHORTS("short[]", short[].class, "shorts"),
    CHARS("char[]", char[].class, "chars"),
    BYTES("byte[]", byte[].class, "bytes"),
    BOOLEANS("boolean[]", boolean[].class, "booleans");

    private final String label;
    private final Class<?> storage;
    private final String elements;

    SlotKind(final String label, final Class<?> storage, final String elements) {
        this.label = label;
        this.storage = storage;
        this.elements = elements;
    }

    /** @return the constant woven code passes for this kind, never 0 (an empty entry) */
    int code() {
        return ordinal() + 1;
    }

    /** @return the kind of a code, or null */
    static SlotKind of(final long code) {
        return code < 1 || code > values().length ? null : values()[(int) code - 1];
    }

    /** @return the kind of an array's descriptor such as {@code [J}, references for any object array, or null */
    static SlotKind ofArray(final String descriptor) {
        if (descriptor.length() < 2 || descriptor.charAt(0) != '[') {
            return null;
        }
        switch (descriptor.charAt(1)) {
            case 'J': return LONGS;
            case 'I': return INTS;
            case 'D': return DOUBLES;
            case 'F': return FLOATS;
            case 'S': return SHORTS;
            case 'C': return CHARS;
            case 'B': return BYTES;
            case 'Z': return BOOLEANS;
            default: return REFERENCES;
        }
    }

    /**
     * @param opcode an array instruction, {@code IALOAD} to {@code SALOAD} or {@code IASTORE} to {@code SASTORE}
     * @return the kind of array it indexes (a {@code BALOAD}'s byte[] or boolean[] as bytes), or null for another instruction
     */
    static SlotKind ofInstruction(final int opcode) {
        final int load = opcode >= Opcodes.IASTORE && opcode <= Opcodes.SASTORE ? opcode - (Opcodes.IASTORE - Opcodes.IALOAD) : opcode;
        switch (load) {
            case Opcodes.IALOAD: return INTS;
            case Opcodes.LALOAD: return LONGS;
            case Opcodes.FALOAD: return FLOATS;
            case Opcodes.DALOAD: return DOUBLES;
            case Opcodes.AALOAD: return REFERENCES;
            case Opcodes.BALOAD: return BYTES;
            case Opcodes.CALOAD: return CHARS;
            case Opcodes.SALOAD: return SHORTS;
            default: return null;
        }
    }

    /** @return the class as reports name it, e.g. {@code java.util.concurrent.atomic.AtomicLongArray} */
    String label() {
        return label;
    }

    /** @return the array the slots are elements of */
    Class<?> storage() {
        return storage;
    }

    /** @return the elements' plural for a fix, e.g. {@code longs} */
    String elements() {
        return elements;
    }
}
