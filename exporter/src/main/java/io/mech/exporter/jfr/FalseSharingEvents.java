package io.mech.exporter.jfr;

import io.mech.probes.falsesharing.FalseSharingProbe;
import io.mech.probes.falsesharing.FalseSharingSnapshot;
import io.mech.probes.falsesharing.Verdict;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.FlightRecorder;

/** Commits a {@link FalseSharingEvent} for every verdict of a finished window. */
public final class FalseSharingEvents implements FalseSharingProbe.Listener {

    @Override
    public void windowDone(final FalseSharingSnapshot done) {
        if (!FlightRecorder.isInitialized()) {
            // no recording could take the event, and its class would load JFR's metadata
            return;
        }
        for (final Verdict v : done.verdicts()) {
            final FalseSharingEvent event = new FalseSharingEvent();
            if (event.isEnabled()) {
                event.verdict = v.kind().label();
                event.className = v.className();
                event.fields = String.join(",", v.fields());
                event.offsets = join(v.offsets());
                event.threads = String.join(",", v.threads());
                event.rateA = Math.max(v.rates().get(0), v.rates().get(1));
                event.rateB = Math.min(v.rates().get(0), v.rates().get(1));
                event.probability = v.probability();
                event.score = v.score();
                event.fix = v.fix();
                event.commit();
            }
        }
    }

    private static String join(final List<?> values) {
        final List<String> out = new ArrayList<>();
        for (final Object value : values) {
            out.add(String.valueOf(value));
        }
        return String.join(",", out);
    }
}
