package io.mech.agent;

import io.mech.agent.allocation.AllocationPart;
import io.mech.agent.causes.CausesPart;
import io.mech.agent.deadlocks.DeadlockPart;
import io.mech.agent.falsesharing.FalseSharingPart;
import io.mech.agent.hiccup.HiccupPart;
import io.mech.agent.locks.LockPart;
import io.mech.agent.options.Option;
import io.mech.agent.profiler.ProfilerPart;
import io.mech.agent.queues.QueuePart;
import io.mech.agent.runtime.PartSpec;
import java.util.List;

/**
 * The parts mech composes, in the order they start within their stage and appear in the report
 * and the options table. A new part is one line here. Each part's {@code Spec} is a small class of
 * its own, so listing them here loads none of the parts' code.
 */
public final class Parts {

    /** Every part mech knows. */
    public static final List<PartSpec> ALL = List.of(
        HiccupPart.Spec.PART,
        CausesPart.Spec.PART,
        FalseSharingPart.Spec.PART,
        QueuePart.Spec.PART,
        DeadlockPart.Spec.PART,
        AllocationPart.Spec.PART,
        LockPart.Spec.PART,
        ProfilerPart.Spec.PART);

    /** @return every option mech reads: the core's, then each part's, in the order of {@link #ALL} */
    public static List<Option<?>> options() {
        return PartSpec.allOptions(ALL);
    }

    private Parts() {
    }
}
