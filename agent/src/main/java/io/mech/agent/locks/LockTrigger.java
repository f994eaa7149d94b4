package io.mech.agent.locks;

import io.mech.probes.locks.LockProbe;
import io.mech.probes.locks.LockSite;
import io.mech.probes.profiler.TriggerSource;
import java.util.Locale;

/**
 * The lock part's profiler trigger: threads blocked on locks. Its threshold is the part's own
 * option, {@link LockPart.Spec#PROFILER_THRESHOLD}; the profiler only consumes the trigger ({@link io.mech.agent.runtime.Part#triggers}).
 */
final class LockTrigger {

    private LockTrigger() {
    }

    /**
     * Threads blocked entering monitors or parked on j.u.c. locks for at least the threshold in
     * total over the last second, as JFR reported them to the lock probe (waits are not contention).
     * The probe leaves out mech's own blocking, so mech's threads never trigger a capture.
     */
    static TriggerSource of(final LockProbe probe, final long thresholdNanos) {
        return new TriggerSource() {
            private static final long PERIOD_NANOS = 1_000_000_000L;
            private long lastNanos;
            private long lastTotal = -1;

            @Override
            public String name() {
                return "lock";
            }

            @Override
            public String check(final long nowNanos) {
                if (lastTotal >= 0 && nowNanos - lastNanos < PERIOD_NANOS) {
                    return null;
                }
                long total = 0;
                LockSite worst = null;
                for (final LockSite site : probe.snapshot().sites()) {
                    if (site.kind().isContention()) {
                        total += site.totalNanos();
                        if (worst == null || site.totalNanos() > worst.totalNanos()) {
                            worst = site;
                        }
                    }
                }
                final long blocked = lastTotal < 0 ? 0 : total - lastTotal;
                lastTotal = total;
                lastNanos = nowNanos;
                return blocked >= thresholdNanos && worst != null
                    ? String.format(Locale.ROOT, "%.1f ms blocked in 1 s, worst on %s at %s", blocked / 1e6, worst.lockClass(), worst.callSite())
                    : null;
            }
        };
    }
}
