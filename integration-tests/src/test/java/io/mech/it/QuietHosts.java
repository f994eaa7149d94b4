package io.mech.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test class whose hosts mostly sleep and whose assertions hold whatever else runs beside them:
 * no stall, pause or sharing is measured against a bound. failsafe's {@code quiet-hosts}
 * execution runs these classes two at a time, after the others, which run one at a time because
 * they measure (integration-tests/pom.xml).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(QuietHosts.TAG)
public @interface QuietHosts {

    /** The JUnit tag failsafe's executions select and leave out. */
    String TAG = "quiet-hosts";
}
