package io.mech.probes.falsesharing;

/**
 * A field that a static VarHandle, field updater or field offset stands for.
 *
 * @param owner    the field's class, internal name
 * @param name     the field's name
 * @param isStatic whether the field is static
 */
record FieldTarget(String owner, String name, boolean isStatic) {
}
