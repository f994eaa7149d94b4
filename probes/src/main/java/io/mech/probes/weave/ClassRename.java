package io.mech.probes.weave;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

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
        final ByteBuffer in = ByteBuffer.wrap(classFile);
        if (in.getInt() != 0xCAFEBABE) {
            throw new IllegalArgumentException("not a class file");
        }
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(classFile.length + 256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.write(classFile, 0, 10);
            in.position(8);
            final int count = Short.toUnsignedInt(in.getShort());
            for (int i = 1; i < count; i++) {
                final int tag = Byte.toUnsignedInt(in.get());
                if (tag == UTF8) {
                    final int length = Short.toUnsignedInt(in.getShort());
                    final String text = modifiedUtf8(classFile, in.position(), length);
                    in.position(in.position() + length);
                    out.writeByte(tag);
                    out.writeUTF(replace(text, from, to));
                    continue;
                }
                final int size = size(tag);
                out.writeByte(tag);
                out.write(classFile, in.position(), size);
                in.position(in.position() + size);
                if (tag == 5 || tag == 6) {
                    i++;
                }
            }
            out.write(classFile, in.position(), classFile.length - in.position());
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

    /** A UTF-8 constant's text: the class file's modified UTF-8, as DataInput reads it. */
    private static String modifiedUtf8(final byte[] classFile, final int at, final int length) {
        final StringBuilder text = new StringBuilder(length);
        int i = at;
        while (i < at + length) {
            final int a = classFile[i++] & 0xff;
            if (a < 0x80) {
                text.append((char) a);
            } else if ((a & 0xe0) == 0xc0) {
                text.append((char) ((a & 0x1f) << 6 | classFile[i++] & 0x3f));
            } else {
                text.append((char) ((a & 0x0f) << 12 | (classFile[i++] & 0x3f) << 6 | classFile[i++] & 0x3f));
            }
        }
        return text.toString();
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
