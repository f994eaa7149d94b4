package io.mech.probes.allocation;

/**
 * What one of the host's threads allocated while the probe watched. Immutable.
 *
 * @param thread       the thread's name when first seen
 * @param bytes        bytes it allocated since the probe first saw it
 * @param lastRate     bytes per second over the last period; 0 once the thread ended
 * @param alive        whether it was alive at the last check
 */
public record ThreadAllocation(String thread, long bytes, double lastRate, boolean alive) {
}
