package io.mech.probes.falsesharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fixture.sharing.PaddedPair;
import fixture.sharing.SharedPair;
import fixture.sharing.Writers;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.jar.asm.Type;
import org.junit.jupiter.api.Test;

/** The probe in process: layout from the real JVM, a window over two writer threads, the weaving removed after it. */
class FalseSharingProbeTest {

    private static final Instrumentation INST = ByteBuddyAgent.install();

    @Test
    void layoutComesFromTheJvmAndPaddingKeepsFieldsOffOneLine() throws Exception {
        final FieldLayout layout = new FieldLayout(InternalUnsafe.open(INST), 8);
        final FieldLayout.Placed first = layout.resolve(SharedPair.class, "first");
        final FieldLayout.Placed second = layout.resolve(SharedPair.class, "second");
        assertEquals(8, Math.abs(first.offset() - second.offset()), "two longs side by side");
        assertEquals(7.0 / 8, layout.sameLine(Math.min(first.offset(), second.offset()), Math.max(first.offset(), second.offset())));
        assertTrue(layout.candidates(SharedPair.class).stream().anyMatch(c -> !c.adjacent() && c.probability() > 0.8));

        final FieldLayout.Placed paddedFirst = layout.resolve(PaddedPair.class, "first");
        final FieldLayout.Placed paddedSecond = layout.resolve(PaddedPair.class, "second");
        assertNotNull(paddedFirst, "inherited fields resolve");
        assertTrue(Math.abs(paddedFirst.offset() - paddedSecond.offset()) >= 128, "pads keep 128 bytes between the counters");
        assertTrue(layout.candidates(PaddedPair.class).stream()
            .noneMatch(c -> Set2.of(c.first(), c.second()).equals(Set2.of("first", "second"))));
        assertEquals(0.0, layout.sameLine(0, 64));
    }

    @Test
    void sharedPairIsFalseSharingAndItsPaddedTwinIsSilent() throws Exception {
        final SharedPair[] shared = new SharedPair[8];
        final PaddedPair[] padded = new PaddedPair[8];
        // back to back, 32 bytes each: whatever the first one's start, most of them hold both counters on one line
        for (int i = 0; i < shared.length; i++) {
            shared[i] = new SharedPair();
        }
        for (int i = 0; i < padded.length; i++) {
            padded[i] = new PaddedPair();
        }
        final List<Thread> threads = new ArrayList<>();
        threads.add(new Thread(() -> Writers.firsts(shared), "shared-first"));
        threads.add(new Thread(() -> Writers.seconds(shared), "shared-second"));
        threads.add(new Thread(() -> Writers.firsts(padded), "padded-first"));
        threads.add(new Thread(() -> Writers.seconds(padded), "padded-second"));
        threads.forEach(Thread::start);
        final FalseSharingSnapshot done = Windows.run(INST, "fixture.sharing", threads);
        assertTrue(done.verdicts().stream().anyMatch(v -> v.kind() == Verdict.Kind.FALSE_SHARING
            && v.className().equals(SharedPair.class.getName()) && v.fields().equals(List.of("first", "second"))
            && v.threads().containsAll(List.of("shared-first", "shared-second")) && v.score() > 0), done.toString());
        assertTrue(done.verdicts().stream().noneMatch(v -> v.className().contains("PaddedPair")), done.toString());
        assertTrue(done.verdicts().stream().noneMatch(v -> v.kind() == Verdict.Kind.TRUE_SHARING), done.toString());

        final long[] cells = Tally.cells().clone();
        final SharedPair after = shared[0];
        for (int i = 0; i < 1_000; i++) {
            after.first++;
        }
        assertTrue(java.util.Arrays.equals(cells, Tally.cells()), "after the window the weaving is gone: nothing counts");
    }

    @Test
    void everyRepeatsTheWindowAndKeepsTheEarlierOnesThatFoundSomething() throws Exception {
        final SharedPair[] shared = {new SharedPair(), new SharedPair(), new SharedPair(), new SharedPair()};
        final List<Thread> threads = List.of(new Thread(() -> Writers.firsts(shared), "every-first"),
            new Thread(() -> Writers.seconds(shared), "every-second"));
        threads.forEach(Thread::start);
        final FalseSharingProbe probe = Windows.runUntil(INST,
            new FalseSharingSettings(List.of("fixture.sharing"), 0, 600_000_000L, 1_000_000_000L), threads,
            p -> !p.earlier().isEmpty(), 30_000_000_000L);
        assertEquals(1, probe.earlier().size(), "the first window found something and a second one followed it");
        final FalseSharingSnapshot first = probe.earlier().get(0);
        assertTrue(first.verdicts().stream().anyMatch(v -> v.kind() == Verdict.Kind.FALSE_SHARING), first.toString());
        assertTrue(first.endedMillis() > 0 && probe.snapshot().endedMillis() > first.endedMillis(),
            "each window carries its end: " + first.ended() + ", then " + probe.snapshot().ended());
    }

    @Test
    void mechsOwnClassesAreNeverWovenWhateverTheInclude() throws Exception {
        assertTrue(new FieldWeaver(List.of("io/", "io/mech/"), new FieldTable(), new ArraySites(), w -> { })
            .includes("io/mech/examples/locks/Kernel"));
        for (final String include : List.of("io/", "io/mech/", "io/mech/probes/")) {
            final FieldWeaver weaver = new FieldWeaver(List.of(include), new FieldTable(), new ArraySites(), w -> { });
            assertTrue(!weaver.includes(Type.getInternalName(Tally.class)) && !weaver.includes("io/mech/agent/Mech")
                && !weaver.includes("io/mech/shaded/org/HdrHistogram/Histogram"), include);
        }
        // a window over io.mech (every class of this probe, loaded here) and the fixtures: only the fixtures are woven
        final Class<?> fixture = SharedPair.class;
        // the code that uses the fixture's fields: fields no code touches are no candidates
        assertNotNull(Writers.class);
        final List<String> warnings = new ArrayList<>();
        final FalseSharingProbe probe = FalseSharingProbe.start(INST,
            new FalseSharingSettings(List.of("io.mech", "fixture.sharing"), 0, 300_000_000L), false, warnings::add);
        try {
            final long deadline = System.nanoTime() + 20_000_000_000L;
            while (probe.snapshot().state() != FalseSharingSnapshot.State.DONE && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        } finally {
            probe.close();
        }
        final FalseSharingSnapshot done = probe.snapshot();
        assertEquals(List.of(), warnings);
        assertEquals(FalseSharingSnapshot.State.DONE, done.state());
        assertTrue(done.woven() > 0, done.toString());
        assertTrue(done.candidates().stream().anyMatch(c -> c.className().equals(fixture.getName())), done.toString());
        assertTrue(done.candidates().stream().allMatch(c -> c.className().startsWith("fixture.sharing.")), done.toString());
    }

    /** Unordered pairs of names. */
    private static final class Set2 {
        private Set2() {
        }

        static java.util.Set<String> of(final String a, final String b) {
            return java.util.Set.of(a, b);
        }
    }
}
