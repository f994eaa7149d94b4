package io.mech.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Runs every variant of every kernel briefly: its self-check must pass, and must catch a wrong answer. */
class AllVariantsTest {

    private static final RunConfig BRIEF = new RunConfig(0.05, 0);
    private static final RunConfig BRIEFER = new RunConfig(0.02, 0);

    static Stream<Arguments> variants() {
        return Kernels.all().stream().flatMap(kernel -> kernel.variants().stream()
                .map(variant -> Arguments.of(kernel.name(), variant.name())));
    }

    @AfterEach
    void clearFault() {
        Check.injectWrongAnswer = false;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("variants")
    void runsAndPassesItsOwnCheck(final String kernelName, final String variantName) throws InterruptedException {
        final Kernel kernel = Kernels.runnable(kernelName).orElseThrow();
        final VariantDescriptor variant = kernel.descriptor().variant(variantName).orElseThrow();
        final Measurement m;
        try {
            m = kernel.run(variant, BRIEF);
        } catch (final VariantUnavailableException e) {
            Assumptions.abort(e.getMessage());
            return;
        }
        assertTrue(m.ops() > 0, "no operations completed: " + m);
        assertTrue(m.threads() >= 1, "threads: " + m);
        assertTrue(m.nanos() >= BRIEF.nanos(), "ran shorter than asked: " + m.nanos());
        assertTrue(Main.format(m).matches("threads=\\d+ seconds=\\d+\\.\\d\\d ops=\\d+ ops_per_sec=\\d+( \\w+=\\S+)*"),
                Main.format(m));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("variants")
    void catchesAWrongAnswer(final String kernelName, final String variantName) {
        final Kernel kernel = Kernels.runnable(kernelName).orElseThrow();
        final VariantDescriptor variant = kernel.descriptor().variant(variantName).orElseThrow();
        Check.injectWrongAnswer = true;
        try {
            kernel.run(variant, BRIEFER);
            fail("no check failed in " + kernelName + " " + variantName);
        } catch (final VariantUnavailableException e) {
            Assumptions.abort(e.getMessage());
        } catch (final CheckFailedException | InterruptedException expected) {
            assertTrue(expected instanceof CheckFailedException, expected.toString());
        }
    }

    @Test
    void wrongAnswerMakesTheCommandFail() {
        Check.injectWrongAnswer = true;
        final Output output = new Output();
        assertEquals(Main.FAILED, Main.run(new String[] {"counters", "long-adder", "--seconds", "0.02"},
                output.out(), output.err()));
        assertTrue(output.stderr().contains("status=failed check: shared count: expected"), output.stderr());
    }
}
