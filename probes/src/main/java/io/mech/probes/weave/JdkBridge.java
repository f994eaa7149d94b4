package io.mech.probes.weave;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandles;
import java.util.Map;
import java.util.Set;

/**
 * A class of mech's defined inside a JDK package, so that advice woven into that package's
 * classes can call it: such advice links only to classes the boot loader sees. The template is
 * compiled in mech's own package, refers to nothing outside {@code java.lang}, and is renamed
 * into the JDK package when defined; advice that calls it is renamed the same way by
 * {@link #remap}. The package is opened to mech with {@link Instrumentation#redefineModule} and
 * the class defined through {@link MethodHandles#privateLookupIn}. Nothing is appended to the
 * boot class path, which would disable CDS for the application's classes.
 */
public final class JdkBridge {

    private final Class<?> anchor;
    private final String templateInternal;
    private final String bridgeName;

    /**
     * @param anchor     a class of the JDK package the bridge goes into
     * @param template   mech's template class; its simple name, prefixed with {@code Mech}, is the bridge's
     */
    public JdkBridge(final Class<?> anchor, final Class<?> template) {
        this.anchor = anchor;
        this.templateInternal = template.getName().replace('.', '/');
        this.bridgeName = anchor.getPackageName() + ".Mech" + template.getSimpleName();
    }

    /** @return the bridge's binary name inside the JDK package */
    public String name() {
        return bridgeName;
    }

    /**
     * Opens the package to mech and defines the bridge, or finds the one a first probe defined.
     *
     * @param inst the agent's instrumentation
     * @return the bridge class, initialised
     * @throws ReflectiveOperationException when the JVM refuses the definition
     * @throws IOException                  when the template's class file is missing
     */
    public Class<?> define(final Instrumentation inst) throws ReflectiveOperationException, IOException {
        inst.redefineModule(anchor.getModule(), Set.of(), Map.of(),
            Map.of(anchor.getPackageName(), Set.of(JdkBridge.class.getModule())), Set.of(), Map.of());
        try {
            return Class.forName(bridgeName, true, null);
        } catch (final ClassNotFoundException e) {
            final MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(anchor, MethodHandles.lookup());
            return lookup.ensureInitialized(lookup.defineClass(remap(classFile(templateInternal.replace('/', '.')))));
        }
    }

    /**
     * Renames every reference to the template, and the template itself, to the bridge.
     *
     * @param classFile a class file: the template, or advice calling it
     * @return the renamed class file
     */
    public byte[] remap(final byte[] classFile) {
        return ClassRename.rename(classFile, templateInternal, bridgeName.replace('.', '/'));
    }

    /**
     * Reads one of mech's class files as a resource, for weaving or defining elsewhere.
     *
     * @param className the binary name of a class in mech's jar
     * @return its bytes
     * @throws IOException when the class file is not there (a minimised jar)
     */
    public static byte[] classFile(final String className) throws IOException {
        final String path = className.replace('.', '/') + ".class";
        try (InputStream in = JdkBridge.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IOException("no class file " + path);
            }
            return in.readAllBytes();
        }
    }
}
