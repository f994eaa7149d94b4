package io.mech.exporter.jfr;

import io.mech.probes.queues.QueueAlert;
import io.mech.probes.queues.QueueProbe;
import jdk.jfr.FlightRecorder;

/** Commits a {@link QueueBackPressureEvent} for every back-pressure episode the queue probe raises. */
public final class QueueBackPressureEvents implements QueueProbe.Listener {

    @Override
    public void backPressure(final QueueAlert alert) {
        if (!FlightRecorder.isInitialized()) {
            // no recording could take the event, and its class would load JFR's metadata
            return;
        }
        final QueueBackPressureEvent event = new QueueBackPressureEvent();
        if (event.isEnabled()) {
            event.kind = alert.kind();
            event.type = alert.type();
            event.site = alert.site();
            event.reason = alert.reason();
            event.depth = alert.depth();
            event.capacity = alert.capacity();
            event.utilization = alert.utilisation();
            event.growthPerSecond = alert.growthPerSecond();
            event.dequeueRate = alert.dequeueRate();
            event.commit();
        }
    }
}
