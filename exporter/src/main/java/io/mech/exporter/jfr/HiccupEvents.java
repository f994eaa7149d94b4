package io.mech.exporter.jfr;

import io.mech.hiccup.cause.Attribution;
import io.mech.hiccup.cause.AttributionListener;

/** Commits a {@link HiccupEvent} for every attributed stall. */
public final class HiccupEvents implements AttributionListener {

    @Override
    public void attributed(final Attribution attribution) {
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
