package io.mech.probes.queues;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import net.bytebuddy.jar.asm.ClassReader;

/**
 * Tells, as an application class loads, whether it is a {@link Queue}, or a queue that counts
 * its own progress: from its class file's header and its supertypes' (read as resources from its
 * loader, never loaded: loading them from inside a transformer could recurse), down to the first
 * JDK supertype, which is asked directly. Answers are cached per class name.
 *
 * <p>The queue libraries' types are known by their own names under any prefix, for libraries
 * ship relocated copies of them: Netty's event loops run on JCTools' queues relocated into
 * {@code io.netty.util.internal.shaded.org.jctools}, and a shading plugin relocates by prefix,
 * keeping the library's own package path ({@link #isLibraryType}).
 */
final class QueueTypes {

    /** What weaving an application class gets. */
    enum Kind {
        /** Not a queue. */
        NONE,
        /** A queue: constructors register it, offer and poll are counted. */
        QUEUE,
        /**
         * A library queue that counts its own progress (JCTools' progress indicators, an Agrona
         * pipe, a Disruptor ring buffer): registered only, read through its {@link Contract}.
         */
        PROGRESS
    }

    static final String PROGRESS_INDICATORS = "org/jctools/queues/QueueProgressIndicators";
    static final String AGRONA_PIPE = "org/agrona/concurrent/Pipe";
    /** Not a {@link Queue}: the Disruptor's ring buffer, final, whose own constructor registers it. */
    static final String DISRUPTOR_RING_BUFFER = "com/lmax/disruptor/RingBuffer";

    /** Per supertype name: whether it is a queue, and whether it counts its own progress. */
    private final Map<String, Kind> cache = new ConcurrentHashMap<>();

    /** @return the kind of a class already loaded */
    static Kind of(final Class<?> type) {
        if (countsProgress(type)) {
            return Kind.PROGRESS;
        }
        return Queue.class.isAssignableFrom(type) ? Kind.QUEUE : Kind.NONE;
    }

    private static boolean countsProgress(final Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (progress(c.getName().replace('.', '/'))) {
                return true;
            }
            for (final Class<?> i : c.getInterfaces()) {
                if (countsProgress(i)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** @return whether a type of that internal name counts its own progress */
    private static boolean progress(final String internalName) {
        return isLibraryType(internalName, PROGRESS_INDICATORS) || isLibraryType(internalName, AGRONA_PIPE)
            || isLibraryType(internalName, DISRUPTOR_RING_BUFFER);
    }

    /**
     * @param name    a type's name, internal ({@code /}) or binary ({@code .}), as {@code library} is
     * @param library a library type's own name
     * @return whether the type is that one, or a relocated copy of it (the same name after a package prefix)
     */
    static boolean isLibraryType(final String name, final String library) {
        return name.endsWith(library) && (name.length() == library.length()
            || "/.".indexOf(name.charAt(name.length() - library.length() - 1)) >= 0);
    }

    /**
     * @param internalName a class's internal name
     * @param pkg          a library package's own internal name, ending in {@code /}
     * @return where the package begins in the name, relocated or not; -1 when the class is not in it or a subpackage
     */
    static int libraryPackage(final String internalName, final String pkg) {
        if (internalName.startsWith(pkg)) {
            return 0;
        }
        final int at = internalName.indexOf("/" + pkg);
        return at < 0 ? -1 : at + 1;
    }

    /** @return the kind of a class being loaded, from its bytes */
    Kind of(final ClassLoader loader, final byte[] classFile) {
        final ClassReader reader = new ClassReader(classFile);
        if (progress(reader.getClassName())) {
            return Kind.PROGRESS;
        }
        return combine(loader, reader.getSuperName(), reader.getInterfaces());
    }

    private Kind combine(final ClassLoader loader, final String superName, final String[] interfaces) {
        Kind kind = superName == null ? Kind.NONE : named(loader, superName);
        for (final String i : interfaces) {
            kind = max(kind, named(loader, i));
        }
        return kind;
    }

    private static Kind max(final Kind a, final Kind b) {
        return a.ordinal() >= b.ordinal() ? a : b;
    }

    private Kind named(final ClassLoader loader, final String internalName) {
        if (progress(internalName)) {
            return Kind.PROGRESS;
        }
        final Kind known = cache.get(internalName);
        if (known != null) {
            return known;
        }
        Kind kind;
        if (internalName.startsWith("java/")) {
            try {
                kind = Queue.class.isAssignableFrom(Class.forName(internalName.replace('/', '.'), false, null)) ? Kind.QUEUE : Kind.NONE;
            } catch (final ClassNotFoundException | LinkageError e) {
                kind = Kind.NONE;
            }
        } else {
            try (InputStream in = loader.getResourceAsStream(internalName + ".class")) {
                if (in == null) {
                    kind = Kind.NONE;
                } else {
                    final ClassReader reader = new ClassReader(in.readAllBytes());
                    kind = combine(loader, reader.getSuperName(), reader.getInterfaces());
                }
            } catch (final IOException | RuntimeException e) {
                kind = Kind.NONE;
            }
        }
        cache.put(internalName, kind);
        return kind;
    }
}
