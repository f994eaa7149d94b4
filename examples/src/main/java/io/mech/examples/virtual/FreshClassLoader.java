package io.mech.examples.virtual;

import java.io.IOException;
import java.io.InputStream;

/**
 * Defines one class anew from the bytes of its kernel's copy, so that each loader initialises it
 * again: a static initializer runs once per class, and the kernel needs it on every round. The
 * bytes are read once, up front, so that defining the class blocks on nothing (reading them from
 * the jar on each round had the rounds contend for the jar file's monitor). Everything else
 * loads from the parent. Used by one thread; a new loader per round.
 */
final class FreshClassLoader extends ClassLoader {

    private final String name;
    private final byte[] bytes;

    private FreshClassLoader(final ClassLoader parent, final String name, final byte[] bytes) {
        super(parent);
        this.name = name;
        this.bytes = bytes;
    }

    /**
     * A source of fresh copies of a class.
     *
     * @param original the class to define again; its class file must be beside it
     * @return what makes a new loader holding a fresh copy
     */
    static Copies of(final Class<?> original) {
        final String file = original.getName().substring(original.getName().lastIndexOf('.') + 1) + ".class";
        try (InputStream in = original.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException(original.getName() + ": no " + file + " beside it");
            }
            final byte[] bytes = in.readAllBytes();
            return () -> new FreshClassLoader(original.getClassLoader(), original.getName(), bytes);
        } catch (final IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }

    /** Makes loaders, each with its own copy of one class. */
    interface Copies {
        /** A new loader. */
        FreshClassLoader next();
    }

    /** The class defined anew in this loader and initialised on the calling thread. */
    Class<?> initialized() throws ClassNotFoundException {
        return Class.forName(name, true, this);
    }

    @Override
    protected Class<?> loadClass(final String className, final boolean resolve) throws ClassNotFoundException {
        if (!className.equals(name)) {
            return super.loadClass(className, resolve);
        }
        synchronized (getClassLoadingLock(className)) {
            final Class<?> loaded = findLoadedClass(className);
            return loaded != null ? loaded : defineClass(className, bytes, 0, bytes.length);
        }
    }
}
