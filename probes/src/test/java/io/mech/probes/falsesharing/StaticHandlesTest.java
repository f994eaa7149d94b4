package io.mech.probes.falsesharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import fixture.weaving.Shapes;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

/**
 * {@link StaticHandles} read against a compiled static initialiser, and {@link HandleUse} against
 * the code that goes through what it kept.
 */
class StaticHandlesTest {

    private static final String SHAPES = "fixture/weaving/Shapes";

    @Test
    void aStaticInitialisersHandlesAreTiedToTheFieldsAndArraysTheyReach() {
        final StaticHandles statics = statics();
        assertEquals(new FieldTarget(SHAPES, "value", false), statics.handle(SHAPES + ".VALUE"), "findVarHandle");
        assertEquals(new FieldTarget(SHAPES, "count", false), statics.updater(SHAPES + ".COUNT"), "newUpdater");
        assertEquals(new FieldTarget(SHAPES, "plain", false), statics.offset(SHAPES + ".OFFSET"), "a fieldOffset(Class, String) helper");
        assertEquals(SlotKind.ofArray("[J"), statics.slotHandle(SHAPES + ".SLOTS"), "arrayElementVarHandle");
        assertNull(statics.handle(SHAPES + ".SLOTS"), "an element handle stands for no field");
        assertNull(statics.slotHandle(SHAPES + ".VALUE"), "a field's handle reaches no array");
    }

    @Test
    void eachCallGoesThroughTheHandleLoadedBeforeItAndUsesItUp() {
        final StaticHandles statics = statics();
        final List<Object> atCalls = new ArrayList<>();
        MethodCode.feed(Shapes.class, "handles", (access, descriptor) -> {
            final HandleUse uses = new HandleUse(statics, null);
            return new MethodVisitor(Opcodes.ASM9, uses) {
                @Override
                public void visitMethodInsn(final int opcode, final String owner, final String name, final String desc,
                                            final boolean isInterface) {
                    atCalls.add(name + ": " + uses.handle() + " " + uses.updater() + " " + uses.slotHandle());
                    super.visitMethodInsn(opcode, owner, name, desc, isInterface);
                }
            };
        });
        assertEquals(List.of(
            "setVolatile: " + new FieldTarget(SHAPES, "value", false) + " null null",
            "incrementAndGet: null " + new FieldTarget(SHAPES, "count", false) + " null",
            "setVolatile: null null " + SlotKind.ofArray("[J")), atCalls);
    }

    private static StaticHandles statics() {
        final StaticHandles statics = new StaticHandles();
        MethodCode.feed(Shapes.class, "<clinit>", (access, descriptor) -> statics);
        return statics;
    }
}
