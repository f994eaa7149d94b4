package io.mech.examples;

import java.util.List;
import java.util.Objects;

/**
 * Where a probe must point when it reports a finding: a class and, for sharing findings, the
 * fields in it. For {@link Finding#FALSE_SHARING} and {@link Finding#TRUE_SHARING} the fields are
 * exactly those that must be flagged; for queue findings the class is the queue's class; for
 * lock findings it is the class of the lock (the monitor's class, or the j.u.c. lock class).
 *
 * @param finding   the finding this site belongs to
 * @param className binary class name, as {@link Class#getName()} returns it
 * @param fields    the field names that must be flagged, empty when the class alone is the site
 */
public record Site(Finding finding, String className, List<String> fields) {

    /** Validates and copies; the fields list is immutable. */
    public Site {
        Objects.requireNonNull(finding, "finding");
        Objects.requireNonNull(className, "className");
        if (className.isBlank()) {
            throw new IllegalArgumentException("className must not be blank");
        }
        fields = List.copyOf(fields);
    }
}
