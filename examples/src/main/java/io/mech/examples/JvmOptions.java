package io.mech.examples;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.Optional;

/** Reads HotSpot flags of the running JVM, so a variant can tell whether its ground truth holds. */
public final class JvmOptions {

    private JvmOptions() {
    }

    /**
     * @param name a HotSpot flag name without {@code -XX:}, e.g. {@code RestrictContended}
     * @return its current value, empty if this JVM has no such flag
     */
    public static Optional<String> value(final String name) {
        try {
            final HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return hotSpot == null ? Optional.empty() : Optional.of(hotSpot.getVMOption(name).getValue());
        } catch (final IllegalArgumentException unknownFlag) {
            return Optional.empty();
        }
    }

    /** @return the object alignment in bytes; 8 unless -XX:ObjectAlignmentInBytes says otherwise */
    public static int objectAlignment() {
        return value("ObjectAlignmentInBytes").map(Integer::parseInt).orElse(8);
    }
}
