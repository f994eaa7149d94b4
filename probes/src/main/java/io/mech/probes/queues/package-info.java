/**
 * The queue probe: depth, capacity, rates and Little's-law wait of every queue and executor the
 * application creates, and back-pressure alerts. Start it with
 * {@link io.mech.probes.queues.QueueProbe#start}; read {@link io.mech.probes.queues.QueueSnapshot}s.
 */
package io.mech.probes.queues;
