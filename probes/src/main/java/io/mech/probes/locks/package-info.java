/**
 * The lock probe: monitor inflation and lock contention by lock class and call site. Start it
 * with {@link io.mech.probes.locks.LockProbe#start}; read {@link io.mech.probes.locks.LockSnapshot}s.
 */
package io.mech.probes.locks;
