/**
 * The false-sharing probe (issue 10): reads the JVM's real field layout, weaves counting into the
 * included packages for one time-boxed window, and turns who wrote and read which field, and
 * where, into false-sharing, true-sharing and cross-object verdicts. Start with
 * {@link io.mech.probes.falsesharing.FalseSharingProbe}.
 */
package io.mech.probes.falsesharing;
