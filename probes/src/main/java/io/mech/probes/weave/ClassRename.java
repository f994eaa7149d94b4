package io.mech.probes.weave;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Renames one class in a class file by rewriting its constant pool: every reference to a class,
 * in a {@code CONSTANT_Class}, a descriptor or a signature, is a UTF-8 constant that holds its
 * internal name, whole or as {@code L<name>;}, so rewriting those constants renames the class
 * everywhere and leaves the rest of the file, byte for byte, as it was.
 *
 * <p>Why not ASM's {@code ClassRemapper}: loading it, its remappers and its class writer, and
 * rebuilding the whole file, cost the lock probe 0.6 MiB of an idle host's first seconds, for
 * a rename that touches a handful of constants.
 *
 * <p>A name is replaced only where it ends a constant or is followed by {@code ;}, {@code <} or
 * {@code $} (a nested class, renamed with it), so a class whose name merely begins with the
 * old one keeps its name. Stateless.
 */
final class ClassRename {

    private static final int UTF8 = 1;

    private ClassRename() {
    }

    /**
     * @param classFile a class file
     * @param from      the internal name to replace, such as {@code io/mech/probes/locks/AqsBridge}
     * @param to        the internal name it becomes
     * @return the class file with every reference to {@code from} naming {@code to}
     * @throws IllegalArgumentException when the bytes are not a class file
     */
    static byte[] rename(final byte[] classFile, final String from, final String to) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(classFile.length + 256);
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
             DataOutputStream out = new DataOutputStream(bytes)) {
            if (in.readInt() != 0xCAFEBABE) {
                throw new IllegalArgumentException("not a class file");
            }
            out.writeInt(0xCAFEBABE);
            out.writeInt(in.readInt());
            final int count = in.readUnsignedShort();
            out.writeShort(count);
            final byte[] constant = new byte[8];
            for (int i = 1; i < count; i++) {
                final int tag = in.readUnsignedByte();
                out.writeByte(tag);
                if (tag == UTF8) {
                    out.writeUTF(replace(in.readUTF(), from, to));
                    continue;
                }
                final int size = size(tag);
                in.readFully(constant, 0, size);
                out.write(constant, 0, size);
                if (tag == 5 || tag == 6) {
                    i++;
                }
            }
            in.transferTo(out);
        } catch (final EOFException e) {
            throw new IllegalArgumentException("not a class file: it ends inside its constant pool", e);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The bytes after a constant's tag: JVMS 4.4. */
    private static int size(final int tag) {
        switch (tag) {
            case 7: case 8: case 16: case 19: case 20:
                return 2;
            case 15:
                return 3;
            case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
                return 4;
            case 5: case 6:
                return 8;
            default:
                throw new IllegalArgumentException("constant pool tag " + tag);
        }
    }

    private static String replace(final String text, final String from, final String to) {
        int at = text.indexOf(from);
        if (at < 0) {
            return text;
        }
        final StringBuilder out = new StringBuilder(text.length() + to.length());
        int copied = 0;
        while (at >= 0) {
            final int end = at + from.length();
            final boolean whole = (at == 0 || text.charAt(at - 1) == 'L')
                && (end == text.length() || ";<$".indexOf(text.charAt(end)) >= 0);
            if (whole) {
                out.append(text, copied, at).append(to);
                copied = end;
            }
            at = text.indexOf(from, end);
        }
        return out.append(text, copied, text.length()).toString();
    }
}
