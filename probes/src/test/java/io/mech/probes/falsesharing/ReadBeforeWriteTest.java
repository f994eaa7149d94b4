package io.mech.probes.falsesharing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import fixture.weaving.Shapes;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

/** {@link ReadBeforeWrite} read against compiled code: which reads belong to a read-modify-write. */
class ReadBeforeWriteTest {

    @Test
    void theReadOfAFieldsIncrementIsTheWritesAndAReadApartIsNot() {
        final List<Boolean> rmw = new ArrayList<>();
        MethodCode.feed(Shapes.class, "increments", (access, descriptor) -> {
            final ReadBeforeWrite reads = new ReadBeforeWrite(null);
            return new MethodVisitor(Opcodes.ASM9, reads) {
                @Override
                public void visitFieldInsn(final int opcode, final String owner, final String name, final String desc) {
                    if (opcode == Opcodes.GETFIELD && name.equals("plain")) {
                        rmw.add(reads.isFieldRead(opcode));
                    }
                    super.visitFieldInsn(opcode, owner, name, desc);
                }
            };
        });
        assertEquals(List.of(true, false), rmw, "plain++, then long read = plain");
    }

    @Test
    void theLoadOfAnElementsIncrementIsTheStoresAndALoadApartIsNot() {
        final List<Boolean> rmw = new ArrayList<>();
        MethodCode.feed(Shapes.class, "elements", (access, descriptor) -> {
            final ReadBeforeWrite reads = new ReadBeforeWrite(null);
            return new MethodVisitor(Opcodes.ASM9, reads) {
                @Override
                public void visitInsn(final int opcode) {
                    if (opcode == Opcodes.LALOAD) {
                        rmw.add(reads.isElementRead());
                    }
                    super.visitInsn(opcode);
                }
            };
        });
        assertEquals(List.of(true, false), rmw, "slots[i]++, then return slots[i]");
    }
}
