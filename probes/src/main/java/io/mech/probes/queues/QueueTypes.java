package io.mech.probes.queues;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import net.bytebuddy.jar.asm.ClassReader;

/**
 * Tells, as an application class loads, whether it is a {@link Queue}: from its class file's
 * header and its supertypes' (read as resources from its loader, never loaded: loading them from
 * inside a transformer could recurse), down to the first JDK supertype, which is asked directly.
 * Answers are cached per class name.
 */
final class QueueTypes {

    /** What weaving an application class gets. */
    enum Kind {
        /** Not a queue. */
        NONE,
        /** A queue: constructors register it, offer and poll are counted. */
        QUEUE,
        /** A JCTools queue with progress indicators: registered only, read through its indices. */
        PROGRESS
    }

    static final String PROGRESS_INDICATORS = "org/jctools/queues/QueueProgressIndicators";

    /** Per supertype name: whether it is a queue, and whether it has progress indicators. */
    private final Map<String, Kind> cache = new ConcurrentHashMap<>();

    /** @return the kind of a class already loaded */
    static Kind of(final Class<?> type) {
        if (!Queue.class.isAssignableFrom(type)) {
            return Kind.NONE;
        }
        return hasProgressIndicators(type) ? Kind.PROGRESS : Kind.QUEUE;
    }

    private static boolean hasProgressIndicators(final Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (final Class<?> i : c.getInterfaces()) {
                if (i.getName().replace('.', '/').equals(PROGRESS_INDICATORS) || hasProgressIndicators(i)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** @return the kind of a class being loaded, from its bytes */
    Kind of(final ClassLoader loader, final byte[] classFile) {
        final ClassReader reader = new ClassReader(classFile);
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
        if (internalName.equals(PROGRESS_INDICATORS)) {
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
