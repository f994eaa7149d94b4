package io.mech.agent.runtime;

import io.mech.hiccup.cause.OwnOperations;
import java.lang.instrument.ClassDefinition;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.jar.JarFile;

/**
 * The JVM's instrumentation as every part sees it: the same calls, with each class redefinition
 * and retransformation timed into {@link OwnOperations}, so that the safepoint it stops the host
 * for is put down to mech from the first one, with or without JFR, under {@code -javaagent} and
 * under {@code attach}. ByteBuddy's weaving goes through these calls too. Each waits first for
 * room in the host's heap, and for calm in one that was full ({@link HeapRoom#awaitCalm}): under a
 * full one, the JDK's own reporting of a failed retransformation crashed the VM.
 *
 * <p>Thread-safe as the instrumentation it wraps: it keeps no state of its own.
 */
final class TimedInstrumentation implements Instrumentation {

    /**
     * Retransformation waits for a calm heap until mech's stop begins, and for room alone from
     * then on (an unweaving at stop must not hold the host's exit for the calm): see
     * {@link HeapRoom}. A class, not a lambda: this class is made in premain, where a lambda costs
     * the host's start-up. Reads the flag alone: it is asked where the heap may be full.
     */
    private static final BooleanSupplier EXITING = new BooleanSupplier() {
        @Override
        public boolean getAsBoolean() {
            return ShutdownState.marked();
        }
    };

    /** Waits for room for as long as it takes. */
    private static final BooleanSupplier NEVER = new BooleanSupplier() {
        @Override
        public boolean getAsBoolean() {
            return false;
        }
    };

    private final Instrumentation jvm;
    private final OwnOperations own;

    TimedInstrumentation(final Instrumentation jvm, final OwnOperations own) {
        this.jvm = jvm;
        this.own = own;
    }

    @Override
    public void retransformClasses(final Class<?>... classes) throws UnmodifiableClassException {
        HeapRoom.awaitCalm(EXITING, NEVER);
        final OwnOperations.Operation operation = own.begin("RetransformClasses");
        try {
            jvm.retransformClasses(classes);
        } finally {
            own.end(operation);
        }
    }

    @Override
    public void redefineClasses(final ClassDefinition... definitions) throws ClassNotFoundException, UnmodifiableClassException {
        HeapRoom.awaitCalm(EXITING, NEVER);
        final OwnOperations.Operation operation = own.begin("RedefineClasses");
        try {
            jvm.redefineClasses(definitions);
        } finally {
            own.end(operation);
        }
    }

    @Override
    public void addTransformer(final ClassFileTransformer transformer, final boolean canRetransform) {
        jvm.addTransformer(transformer, canRetransform);
    }

    @Override
    public void addTransformer(final ClassFileTransformer transformer) {
        jvm.addTransformer(transformer);
    }

    @Override
    public boolean removeTransformer(final ClassFileTransformer transformer) {
        return jvm.removeTransformer(transformer);
    }

    @Override
    public boolean isRetransformClassesSupported() {
        return jvm.isRetransformClassesSupported();
    }

    @Override
    public boolean isRedefineClassesSupported() {
        return jvm.isRedefineClassesSupported();
    }

    @Override
    public boolean isModifiableClass(final Class<?> theClass) {
        return jvm.isModifiableClass(theClass);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class[] getAllLoadedClasses() {
        return jvm.getAllLoadedClasses();
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class[] getInitiatedClasses(final ClassLoader loader) {
        return jvm.getInitiatedClasses(loader);
    }

    @Override
    public long getObjectSize(final Object objectToSize) {
        return jvm.getObjectSize(objectToSize);
    }

    @Override
    public void appendToBootstrapClassLoaderSearch(final JarFile jarfile) {
        jvm.appendToBootstrapClassLoaderSearch(jarfile);
    }

    @Override
    public void appendToSystemClassLoaderSearch(final JarFile jarfile) {
        jvm.appendToSystemClassLoaderSearch(jarfile);
    }

    @Override
    public boolean isNativeMethodPrefixSupported() {
        return jvm.isNativeMethodPrefixSupported();
    }

    @Override
    public void setNativeMethodPrefix(final ClassFileTransformer transformer, final String prefix) {
        jvm.setNativeMethodPrefix(transformer, prefix);
    }

    @Override
    public void redefineModule(final Module module, final Set<Module> extraReads, final Map<String, Set<Module>> extraExports,
                               final Map<String, Set<Module>> extraOpens, final Set<Class<?>> extraUses,
                               final Map<Class<?>, List<Class<?>>> extraProvides) {
        jvm.redefineModule(module, extraReads, extraExports, extraOpens, extraUses, extraProvides);
    }

    @Override
    public boolean isModifiableModule(final Module module) {
        return jvm.isModifiableModule(module);
    }
}
