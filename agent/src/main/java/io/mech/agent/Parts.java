package io.mech.agent;

import java.util.List;

/**
 * The parts mech composes, in the order they start within their stage and appear in the report
 * and the options table. A new part is one line here. Each part's {@code Spec} is a small class of
 * its own, so listing them here loads none of the parts' code.
 */
final class Parts {

    /** Every part mech knows. */
    static final List<PartSpec> ALL = List.of(
        HiccupPart.Spec.PART,
        CausesPart.Spec.PART,
        FalseSharingPart.Spec.PART,
        QueuePart.Spec.PART,
        DeadlockPart.Spec.PART,
        LockPart.Spec.PART,
        ProfilerPart.Spec.PART);

    private Parts() {
    }
}
