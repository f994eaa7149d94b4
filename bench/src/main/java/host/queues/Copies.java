package host.queues;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Defines copies of classes that its parent also has: {@link Exchange} (a second class, with
 * profiles of its own), and a queue class renamed into {@code host.queues.plain}, where the queue
 * probe weaves nothing. The copy's name has the original's length, so renaming is a byte-for-byte
 * replacement inside the class file's name constants and changes no offset; it covers the
 * original's nested classes too. A JDK queue's copy keeps its references to the rest of the JDK.
 */
final class Copies extends ClassLoader {

    private final String original;
    private final String copy;

    /**
     * @param original the binary name of the class to copy under another name, or null for none
     * @param copy     the copy's binary name, as long as the original's
     */
    Copies(final String original, final String copy) {
        super(Copies.class.getClassLoader());
        if (original != null && original.length() != copy.length()) {
            throw new IllegalArgumentException(copy + " is not as long as " + original);
        }
        this.original = original;
        this.copy = copy;
    }

    @Override
    protected Class<?> loadClass(final String name, final boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            final Class<?> loaded = findLoadedClass(name);
            if (loaded != null) {
                return loaded;
            }
            if (name.equals(Exchange.class.getName())) {
                return define(name, name);
            }
            if (copy != null && name.startsWith(copy)) {
                return define(name, original + name.substring(copy.length()));
            }
            return super.loadClass(name, resolve);
        }
    }

    private Class<?> define(final String name, final String from) {
        final byte[] bytes;
        try (InputStream in = ClassLoader.getSystemResourceAsStream(from.replace('.', '/') + ".class")) {
            bytes = in.readAllBytes();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        if (original != null) {
            replace(bytes, original.replace('.', '/'), copy.replace('.', '/'));
        }
        return defineClass(name, bytes, 0, bytes.length);
    }

    private static void replace(final byte[] bytes, final String from, final String to) {
        final byte[] a = from.getBytes(StandardCharsets.US_ASCII);
        final byte[] b = to.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i + a.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + a.length, a, 0, a.length)) {
                System.arraycopy(b, 0, bytes, i, b.length);
            }
        }
    }
}
