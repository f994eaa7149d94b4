/**
 * What every probe needs to keep mech out of its own findings: {@link io.mech.probes.MechThreads}
 * tells mech's threads (and JFR's) from the host's, {@link io.mech.probes.MechCode} mech's classes
 * from the application's.
 */
package io.mech.probes;
