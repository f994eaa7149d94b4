package io.mech.probes.falsesharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fixture.arrays.PlainSlots;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

/**
 * Plain array instructions: woven as array slots named by their site, the read of a{@code [i]++}
 * and a method's own arrays left alone, the woven code still computing what it did; and a window
 * over four threads on a plain long[] that flags slots side by side and not slots 16 apart.
 */
class ArrayWeavingTest {

    private static final Instrumentation INST = ByteBuddyAgent.install();
    private static final String FIXTURE = "fixture/arrays/PlainSlots";

    /** One woven slot count: its kind of call and the site its constant names. */
    private record Count(String call, String site) {
    }

    @Test
    void arrayInstructionsAreCountedAsSlotsNamedByTheirSite() throws Exception {
        final ArraySites sites = new ArraySites();
        final List<String> warnings = new ArrayList<>();
        final FieldWeaver weaver = new FieldWeaver(List.of("fixture/arrays/"), new FieldTable(), sites, warnings::add);
        final byte[] original;
        try (InputStream in = PlainSlots.class.getResourceAsStream("PlainSlots.class")) {
            original = in.readAllBytes();
        }
        final byte[] woven = weaver.transform(null, getClass().getClassLoader(), FIXTURE, null, null, original);
        assertNotNull(woven, "the class is woven");
        assertEquals(List.of(), warnings);
        final Map<String, List<Count>> counts = counts(woven, sites);

        assertEquals(List.of(new Count("slotWrite", "fixture.arrays.PlainSlots.adjacent"),
            new Count("slotWrite", "fixture.arrays.PlainSlots.strided")), counts.get("round"),
            "a[i]++ counts its write, and not the read before it");
        assertEquals(List.of(new Count("slotWrite", "fixture.arrays.PlainSlots.doubles"),
            new Count("slotRead", "fixture.arrays.PlainSlots.doubles")), counts.get("put"));
        assertEquals(List.of(new Count("slotRead", "in fixture.arrays.PlainSlots.sum")), counts.get("sum"),
            "an argument's array is named by its method");
        assertEquals(List.of(), counts.getOrDefault("scratch", List.of()), "an array the method made itself is its own");
        assertEquals(List.of(new Count("slotRead", "in fixture.arrays.PlainSlots.copy"),
            new Count("slotWrite", "fixture.arrays.PlainSlots.adjacent")), counts.get("copy"),
            "an argument's array indexed after a field's is not taken for the field's");

        // the woven class computes what the original did, its sites linked to nothing
        final Class<?> type = new ClassLoader(getClass().getClassLoader()) {
            Class<?> define() {
                return defineClass(FIXTURE.replace('/', '.'), woven, 0, woven.length);
            }
        }.define();
        final Object slots = type.getConstructor().newInstance();
        type.getMethod("round", int.class).invoke(slots, 2);
        assertEquals(1000L, type.getMethod("count", int.class).invoke(slots, 2));
        assertEquals(7L, type.getMethod("copy", long[].class, int.class).invoke(slots, new long[] {0, 0, 0, 7}, 3));
        assertEquals(2.5, type.getMethod("put", int.class, double.class).invoke(slots, 1, 2.5));
        final Method sum = type.getMethod("sum", long[].class);
        assertEquals(6L, sum.invoke(null, (Object) new long[] {1, 2, 3}));
        assertEquals(45, type.getMethod("scratch", int.class).invoke(null, 10));
    }

    @Test
    void fourThreadsOnSlotsSideBySideAreFlaggedAndSlotsSixteenApartAreNot() throws Exception {
        final PlainSlots slots = new PlainSlots();
        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            final int slot = t;
            threads.add(new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    slots.round(slot);
                }
            }, "slot-" + t));
        }
        threads.forEach(Thread::start);
        final FalseSharingSnapshot done = Windows.run(INST, "fixture.arrays", threads);
        final List<String> named = List.of("[0]", "[1]", "[2]", "[3]");
        assertTrue(done.verdicts().stream().anyMatch(v -> v.kind() == Verdict.Kind.FALSE_SHARING
            && v.className().startsWith("long[]@") && v.className().endsWith(" held by fixture.arrays.PlainSlots.adjacent")
            && v.fields().equals(named) && v.fix().contains("16 longs (128 bytes) apart")),
            done.toString());
        assertTrue(done.verdicts().stream().noneMatch(v -> v.className().contains("strided")), done.toString());
        assertTrue(done.arraySlots() >= 8, "each thread's slot of both arrays was counted: " + done);
        assertTrue(done.notCounted().stream().anyMatch(p -> p.startsWith("code outside fixture.arrays")), done.toString());
    }

    /** The woven slot counts of each method, in order, with the sites their constants name. */
    private static Map<String, List<Count>> counts(final byte[] woven, final ArraySites sites) {
        final Map<String, List<Count>> counts = new HashMap<>();
        new ClassReader(woven).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(final int access, final String name, final String descriptor,
                                             final String signature, final String[] exceptions) {
                final List<Count> mine = counts.computeIfAbsent(name, n -> new ArrayList<>());
                return new MethodVisitor(Opcodes.ASM9) {
                    private Object constant;

                    @Override
                    public void visitLdcInsn(final Object value) {
                        constant = value;
                    }

                    @Override
                    public void visitInvokeDynamicInsn(final String call, final String type, final Handle bootstrap,
                                                       final Object... arguments) {
                        if (call.startsWith("slot")) {
                            mine.add(new Count(call, sites.name(ArraySites.site((Integer) constant))));
                        }
                    }
                };
            }
        }, 0);
        return counts;
    }
}
