package io.mech.probes.falsesharing;

import java.util.HashMap;
import java.util.Map;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Reads a class's static initialiser for what it keeps in static fields to reach other fields
 * with: a VarHandle from {@code findVarHandle} or {@code findStaticVarHandle}, an
 * {@code Atomic*FieldUpdater} from {@code newUpdater}, a field's offset from
 * {@code objectFieldOffset(X.class.getDeclaredField("f"))} or a {@code fieldOffset(X.class, "f")}
 * helper as JCTools has (each the field it stands for), and a VarHandle from
 * {@code arrayElementVarHandle} (its array's kind). It follows javac's order of constants and
 * calls: the class and the name are the constants loaded before the call that makes the handle.
 *
 * <p>Filled by one weaving pass over one class, on one thread, and read by that pass.
 */
final class StaticHandles extends MethodVisitor {

    private final Map<String, FieldTarget> handles = new HashMap<>();
    private final Map<String, FieldTarget> updaters = new HashMap<>();
    private final Map<String, SlotKind> slotHandles = new HashMap<>();
    private final Map<String, FieldTarget> offsets = new HashMap<>();

    private String lastClass;
    /** The first class constant since the last call: an updater's or a VarHandle's owner. */
    private String firstClass;
    private String classBeforeString;
    private String lastString;
    private String lastArray;
    private FieldTarget pending;
    private FieldTarget pendingUpdater;
    private FieldTarget pendingOffset;
    /** The field a {@code getDeclaredField} named, for the offset an Unsafe takes of it next. */
    private FieldTarget declared;
    private SlotKind pendingSlots;

    StaticHandles() {
        super(Opcodes.ASM9);
    }

    /** @return the field a static VarHandle ({@code owner.name}) stands for, or null */
    FieldTarget handle(final String staticField) {
        return handles.get(staticField);
    }

    /** @return the field a static field updater ({@code owner.name}) stands for, or null */
    FieldTarget updater(final String staticField) {
        return updaters.get(staticField);
    }

    /** @return the field whose offset a static long ({@code owner.name}) holds, or null */
    FieldTarget offset(final String staticField) {
        return offsets.get(staticField);
    }

    /** @return the kind of array whose elements a static VarHandle ({@code owner.name}) reaches, or null */
    SlotKind slotHandle(final String staticField) {
        return slotHandles.get(staticField);
    }

    @Override
    public void visitLdcInsn(final Object value) {
        if (value instanceof Type && ((Type) value).getSort() == Type.OBJECT) {
            lastClass = ((Type) value).getInternalName();
            firstClass = firstClass == null ? lastClass : firstClass;
        } else if (value instanceof Type && ((Type) value).getSort() == Type.ARRAY) {
            lastArray = ((Type) value).getDescriptor();
        } else if (value instanceof String) {
            lastString = (String) value;
            classBeforeString = lastClass;
        }
    }

    @Override
    public void visitMethodInsn(final int opcode, final String owner, final String name, final String descriptor,
                                final boolean isInterface) {
        if (owner.equals(AccessApis.LOOKUP) && classBeforeString != null && lastString != null
            && (name.equals("findVarHandle") || name.equals("findStaticVarHandle"))) {
            pending = new FieldTarget(classBeforeString, lastString, name.equals("findStaticVarHandle"));
        } else if (owner.equals(AccessApis.HANDLES) && name.equals("arrayElementVarHandle") && lastArray != null) {
            pendingSlots = SlotKind.ofArray(lastArray);
        } else if (AccessApis.FIELD_UPDATERS.contains(owner) && name.equals("newUpdater") && firstClass != null
            && lastString != null) {
            pendingUpdater = new FieldTarget(firstClass, lastString, false);
        } else if (owner.equals("java/lang/Class") && name.equals("getDeclaredField") && lastClass != null
            && lastString != null) {
            declared = new FieldTarget(lastClass, lastString, false);
        } else if (name.equals("objectFieldOffset") && declared != null) {
            pendingOffset = declared;
            declared = null;
        } else if (name.equals("fieldOffset") && descriptor.equals("(Ljava/lang/Class;Ljava/lang/String;)J")
            && firstClass != null && lastString != null) {
            // JCTools' UnsafeAccess.fieldOffset(Class, String), and helpers shaped like it
            pendingOffset = new FieldTarget(firstClass, lastString, false);
        }
        firstClass = null;
    }

    @Override
    public void visitFieldInsn(final int opcode, final String owner, final String name, final String descriptor) {
        if (opcode != Opcodes.PUTSTATIC) {
            return;
        }
        final String field = owner + '.' + name;
        if (descriptor.equals(AccessApis.VAR_HANDLE_DESCRIPTOR) && pending != null) {
            handles.put(field, pending);
            pending = null;
        } else if (descriptor.equals(AccessApis.VAR_HANDLE_DESCRIPTOR) && pendingSlots != null) {
            slotHandles.put(field, pendingSlots);
            pendingSlots = null;
        } else if (AccessApis.isFieldUpdater(descriptor) && pendingUpdater != null) {
            updaters.put(field, pendingUpdater);
            pendingUpdater = null;
        } else if (descriptor.equals("J") && pendingOffset != null) {
            offsets.put(field, pendingOffset);
            pendingOffset = null;
        }
    }
}
