package io.mech.probes.falsesharing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import fixture.weaving.Shapes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

/** {@link ArraySource} read against compiled code: which array each element instruction indexes. */
class ArraySourceTest {

    private static final String SLOTS = "fixture.weaving.Shapes.slots";

    @Test
    void aFieldsArrayIsNamedThroughALocalAndANewArrayIsTheMethodsOwn() {
        assertEquals(Arrays.asList(ArraySource.FRESH, SLOTS, null, ArraySource.FRESH), sources("arrays"),
            "own[i] = 1, kept[i] = 2, argument[i] (unknown), own[i]");
    }

    @Test
    void anIncrementsLoadAndStoreBothIndexTheField() {
        assertEquals(List.of(SLOTS, SLOTS, SLOTS), sources("elements"), "slots[i]++ (load, store), then slots[i]");
    }

    /** The source of the array each element instruction of the method takes, in code order (null: unknown). */
    private static List<String> sources(final String method) {
        final List<String> sources = new ArrayList<>();
        MethodCode.feed(Shapes.class, method, (access, descriptor) -> {
            final ArraySource arrays = new ArraySource(access, descriptor, null);
            return new MethodVisitor(Opcodes.ASM9, arrays) {
                @Override
                public void visitInsn(final int opcode) {
                    if (SlotKind.ofInstruction(opcode) != null) {
                        sources.add(arrays.source());
                    }
                    super.visitInsn(opcode);
                }
            };
        });
        return sources;
    }
}
