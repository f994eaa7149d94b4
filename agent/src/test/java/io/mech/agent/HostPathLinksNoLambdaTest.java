package io.mech.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.agent.hiccup.HiccupPart;
import io.mech.agent.options.Option;
import io.mech.agent.runtime.PartSpec;
import io.mech.hiccup.HiccupRecorder;
import io.mech.hiccup.HiccupSettings;
import io.mech.hiccup.VmCounters;
import io.mech.hiccup.cause.OwnOperations;
import io.mech.probes.VmOperations;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

/**
 * The code that runs on the host's own path, premain before main (the hiccup meter's start
 * included) and the shutdown hook before the VM exits, links no lambda, method reference or other {@code invokedynamic} call site: each
 * cost the host's start-up about half a millisecond on a cold JVM (23 of them made premain 53 ms
 * where it is now 43, JDK 17). Read from the class files, so that a lambda added there fails here.
 */
class HostPathLinksNoLambdaTest {

    private static final Predicate<String> EVERY = name -> true;
    private static final Predicate<String> BUT_RECORD_METHODS = name -> !Set.of("equals", "hashCode", "toString").contains(name);

    /** Mech's methods that run on the host's thread in premain, or in its shutdown hook. */
    private static final Set<String> MECH_HOST_PATH = Set.of("<init>", "<clinit>", "start", "startBeforeMainInGroup",
        "startBeforeMain", "context", "stopWithinBudget", "stop", "step", "started", "withoutHiccups", "close");

    @Test
    void everyOptionParserAndPartSpecIsMadeWithoutInvokedynamic() throws IOException {
        final List<String> found = new ArrayList<>();
        for (final Class<?> type : withNested(Option.class)) {
            // a record's equals, hashCode and toString are linked when called, which premain never does
            found.addAll(dynamicCallSites(type, type.isRecord() ? BUT_RECORD_METHODS : EVERY));
        }
        found.addAll(dynamicCallSites(PartSpec.class, Set.of("<init>", "<clinit>")::contains));
        found.addAll(dynamicCallSites(Parts.class, EVERY));
        for (final PartSpec spec : Parts.ALL) {
            final Class<?> holder = spec.starter().getClass();
            assertTrue(holder.getSimpleName().equals("Spec"), spec.name() + "'s starter is its Spec class, not a lambda: " + holder);
            found.addAll(dynamicCallSites(holder, Set.of("<clinit>", "<init>")::contains));
        }
        assertEquals(List.of(), found);
    }

    @Test
    void premainAndTheShutdownHookLinkNone() throws IOException, ClassNotFoundException {
        final List<String> found = new ArrayList<>();
        found.addAll(dynamicCallSites(MechAgent.class, EVERY));
        found.addAll(dynamicCallSites(unloaded("io.mech.agent.runtime.Mech"), MECH_HOST_PATH::contains));
        found.addAll(dynamicCallSites(unloaded("io.mech.agent.runtime.TimedInstrumentation"), Set.of("<clinit>", "<init>")::contains));
        found.addAll(dynamicCallSites(VmOperations.class, Set.of("<clinit>")::contains));
        found.addAll(dynamicCallSites(OwnOperations.class, Set.of("stops")::contains));
        assertEquals(List.of(), found);
    }

    @Test
    void theHiccupMeterStartsBeforeMainWithoutInvokedynamic() throws IOException {
        final List<String> found = new ArrayList<>();
        found.addAll(dynamicCallSites(HiccupPart.Spec.class, EVERY));
        found.addAll(dynamicCallSites(HiccupPart.class, Set.of("counters", "settings")::contains));
        found.addAll(dynamicCallSites(HiccupRecorder.class, Set.of("<init>", "<clinit>", "startMeter", "daemon", "stallQueueCapacity")::contains));
        found.addAll(dynamicCallSites(HiccupSettings.class, Set.of("<init>")::contains));
        for (final Class<?> type : withNested(VmCounters.class)) {
            found.addAll(dynamicCallSites(type, EVERY));
        }
        assertEquals(List.of(), found);
    }

    private static Class<?> unloaded(final String name) throws ClassNotFoundException {
        return Class.forName(name, false, HostPathLinksNoLambdaTest.class.getClassLoader());
    }

    private static List<Class<?>> withNested(final Class<?> type) {
        final List<Class<?>> all = new ArrayList<>(List.of(type));
        for (final Class<?> nested : type.getDeclaredClasses()) {
            all.addAll(withNested(nested));
        }
        return all;
    }

    /**
     * @param read which methods to read, by name
     * @return each invokedynamic found, as class.method -> bootstrap
     */
    private static List<String> dynamicCallSites(final Class<?> type, final Predicate<String> read) throws IOException {
        final List<String> found = new ArrayList<>();
        final String resource = "/" + type.getName().replace('.', '/') + ".class";
        try (InputStream in = type.getResourceAsStream(resource)) {
            assertTrue(in != null, "no class file for " + type);
            new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public MethodVisitor visitMethod(final int access, final String name, final String descriptor, final String signature,
                                                 final String[] exceptions) {
                    if (!read.test(name)) {
                        return null;
                    }
                    return new MethodVisitor(Opcodes.ASM9) {
                        @Override
                        public void visitInvokeDynamicInsn(final String callName, final String callDescriptor, final Handle bootstrap,
                                                           final Object... arguments) {
                            found.add(type.getName() + "." + name + " -> " + bootstrap.getOwner() + "." + bootstrap.getName());
                        }
                    };
                }
            }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        }
        return found;
    }
}
