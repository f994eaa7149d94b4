package io.mech.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MainTest {

    private final Output output = new Output();

    private int run(final String... args) {
        return Main.run(args, output.out(), output.err());
    }

    @Test
    void listNamesEveryKernelAndVariantWithItsSummary() {
        assertEquals(Main.OK, run("list"));
        final List<String> lines = output.stdout().lines().toList();
        int expectedLines = 0;
        for (final KernelDescriptor kernel : Kernels.all()) {
            expectedLines += 1 + kernel.variants().size();
            assertTrue(lines.stream().anyMatch(l -> l.startsWith(kernel.name() + " ") && l.contains(kernel.summary())),
                    kernel.name());
            for (final VariantDescriptor variant : kernel.variants()) {
                assertTrue(lines.stream().anyMatch(l -> l.startsWith("  " + variant.name() + " ")
                        && l.contains(variant.summary())), variant.name());
            }
        }
        assertEquals(expectedLines, lines.size());
        assertEquals("", output.stderr());
    }

    @Test
    void unknownKernelPrintsTheListToStderrAndFails() {
        assertEquals(Main.USAGE, run("no-such-kernel"));
        assertTrue(output.stderr().startsWith("unknown kernel 'no-such-kernel'"), output.stderr());
        assertTrue(output.stderr().contains("false-sharing"), output.stderr());
        assertEquals("", output.stdout());
    }

    @Test
    void unknownVariantPrintsTheListToStderrAndFails() {
        assertEquals(Main.USAGE, run("counters", "no-such-variant"));
        assertTrue(output.stderr().startsWith("unknown variant 'no-such-variant' of kernel counters"), output.stderr());
        assertTrue(output.stderr().contains("long-adder"), output.stderr());
    }

    @Test
    void badFlagValuesNameTheFlag() {
        assertEquals(Main.USAGE, run("counters", "--seconds", "soon"));
        assertTrue(output.stderr().startsWith("--seconds: bad value 'soon'"), output.stderr());
        assertEquals(Main.USAGE, run("counters", "--seconds", "-1"));
        assertEquals(Main.USAGE, run("counters", "--threads", "0"));
        assertTrue(output.stderr().contains("--threads: bad value '0'"), output.stderr());
        assertEquals(Main.USAGE, run("counters", "--threads", "100000"));
        assertEquals(Main.USAGE, run("counters", "--threads"));
        assertTrue(output.stderr().contains("--threads: missing value"), output.stderr());
        assertEquals(Main.USAGE, run("counters", "--fast"));
        assertTrue(output.stderr().contains("--fast: unknown flag"), output.stderr());
    }

    @Test
    void noVariantRunsTheWholeLadderOneLinePerVariant() {
        assertEquals(Main.OK, run("counters", "--seconds", "0.05", "--threads", "3"));
        final List<String> lines = output.stdout().lines().toList();
        final List<VariantDescriptor> variants = Kernels.named("counters").orElseThrow().variants();
        assertEquals(variants.size(), lines.size(), output.stdout());
        for (int i = 0; i < lines.size(); i++) {
            assertTrue(lines.get(i).matches("kernel=counters variant=" + variants.get(i).name()
                    + " threads=3 seconds=\\d+\\.\\d\\d ops=\\d+ ops_per_sec=\\d+"), lines.get(i));
        }
    }

    @Test
    void oneVariantRunsAlone() {
        assertEquals(Main.OK, run("false-sharing", "padded", "--seconds", "0.05"));
        assertTrue(output.stdout().matches("kernel=false-sharing variant=padded threads=2 seconds=\\S+ ops=\\d+ ops_per_sec=\\d+\\R"),
                output.stdout());
    }

    @Test
    void severalKernelsRunInOneJvmInTheGivenOrder() {
        assertEquals(Main.OK, run("true-sharing,counters", "--seconds", "0.02"));
        final List<String> lines = output.stdout().lines().toList();
        final int trueSharing = Kernels.named("true-sharing").orElseThrow().variants().size();
        final int counters = Kernels.named("counters").orElseThrow().variants().size();
        assertEquals(trueSharing + counters, lines.size(), output.stdout());
        assertTrue(lines.get(0).startsWith("kernel=true-sharing "), lines.get(0));
        assertTrue(lines.get(lines.size() - 1).startsWith("kernel=counters "), lines.get(lines.size() - 1));
    }

    @Test
    void aVariantNeedsASingleKernel() {
        assertEquals(Main.USAGE, run("true-sharing,counters", "padded"));
        assertTrue(output.stderr().contains("single kernel"), output.stderr());
    }

    @Test
    void anUnknownKernelInAListIsNamed() {
        assertEquals(Main.USAGE, run("counters,nosuch"));
        assertTrue(output.stderr().contains("unknown kernel 'nosuch'"), output.stderr());
    }

    @Test
    void aListCanNameVariantsAndRepeatThem() {
        assertEquals(Main.OK, run("counters:long-adder,counters:long-adder", "--seconds", "0.02"));
        final List<String> lines = output.stdout().lines().toList();
        assertEquals(2, lines.size(), output.stdout());
        assertTrue(lines.stream().allMatch(l -> l.startsWith("kernel=counters variant=long-adder ")), output.stdout());
    }

    @Test
    void anUnknownVariantInAListIsNamed() {
        assertEquals(Main.USAGE, run("counters:nosuch"));
        assertTrue(output.stderr().contains("unknown variant 'nosuch' of kernel counters"), output.stderr());
    }
}
