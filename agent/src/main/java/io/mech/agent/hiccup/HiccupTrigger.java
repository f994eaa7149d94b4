package io.mech.agent.hiccup;

import io.mech.hiccup.StallQueue;
import io.mech.probes.profiler.TriggerSource;
import java.util.Locale;

/**
 * The hiccup part's profiler trigger: a long hiccup. Its threshold is the part's own option,
 * {@link HiccupPart.Spec#PROFILER_THRESHOLD}; the profiler only consumes the trigger ({@link io.mech.agent.runtime.Part#triggers}).
 */
final class HiccupTrigger {

    private HiccupTrigger() {
    }

    /** A hiccup at least the threshold long, read from the meter's watch ring. */
    static TriggerSource of(final StallQueue stalls, final long thresholdNanos) {
        return new TriggerSource() {
            private long longest;

            @Override
            public String name() {
                return "hiccup";
            }

            @Override
            public String check(final long nowNanos) {
                longest = 0;
                stalls.poll((end, length, evidence, at) -> longest = Math.max(longest, length));
                return longest >= thresholdNanos ? String.format(Locale.ROOT, "hiccup of %.1f ms", longest / 1e6) : null;
            }
        };
    }
}
