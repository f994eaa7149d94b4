/**
 * The false-sharing probe (issue 10): reads the JVM's real field layout, weaves counting into the
 * included packages for one time-boxed window, and turns who wrote and read which field, and
 * where, into false-sharing, true-sharing and cross-object verdicts. Start with
 * {@link io.mech.probes.falsesharing.FalseSharingProbe}.
 *
 * <p>The weaving is {@code FieldWeaver}, a class file transformer. It reads a class twice:
 * {@code ClassScan} learns the class's final fields, its methods' locals and, through
 * {@code StaticHandles}, what its static initialiser keeps to reach fields with; {@code ClassRewrite}
 * hands each method to a {@code CountingMethod}. That one asks a chain of recognisers, each
 * watching the original instructions and each tested on compiled code, what an access reaches
 * ({@code ArraySource}, {@code HandleUse}), whether it is the read of a read-modify-write
 * ({@code ReadBeforeWrite}) and whether a lock guards it ({@code LockGuard}), and
 * {@code CountingCode} writes the counting calls.
 */
package io.mech.probes.falsesharing;
