package io.mech.exporter.jfr;

import io.mech.hiccup.cause.Attribution;
import io.mech.hiccup.cause.AttributionListener;
import jdk.jfr.FlightRecorder;

/**
 * Commits a {@link HiccupEvent} for every attributed stall while JFR runs. Called on the causes'
 * thread only.
 */
public final class HiccupEvents implements AttributionListener {

    @Override
    public void attributed(final Attribution attribution) {
        if (!FlightRecorder.isInitialized()) {
            // Initialising an event class loads JFR's metadata: 3.7 MiB of the causes' heap and
            // its classes in an idle host's first 10 s, for an event no recording could take.
            return;
        }
        final HiccupEvent event = new HiccupEvent();
        if (event.isEnabled()) {
            event.stallStart = attribution.startNanos() / 1_000_000;
            event.stallDuration = attribution.lengthNanos();
            event.cause = attribution.cause().tag();
            event.detail = attribution.detail();
            event.commit();
        }
    }
}
