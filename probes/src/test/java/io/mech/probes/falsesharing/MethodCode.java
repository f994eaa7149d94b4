package io.mech.probes.falsesharing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/** Feeds the compiled code of one method of a test fixture to a visitor, as the weaving reads it. */
final class MethodCode {

    /** Makes the visitor for a method, from its access flags and descriptor. */
    interface Visitors {
        MethodVisitor of(int access, String descriptor);
    }

    private MethodCode() {
    }

    /** Reads {@code type}'s class file and feeds {@code method}'s code to the visitor made for it. */
    static void feed(final Class<?> type, final String method, final Visitors visitors) {
        final byte[] classFile;
        try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            classFile = in.readAllBytes();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        final boolean[] found = {false};
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(final int access, final String name, final String descriptor,
                                             final String signature, final String[] exceptions) {
                if (!name.equals(method)) {
                    return null;
                }
                found[0] = true;
                return visitors.of(access, descriptor);
            }
        }, 0);
        if (!found[0]) {
            throw new IllegalArgumentException(type.getName() + " has no method " + method);
        }
    }
}
