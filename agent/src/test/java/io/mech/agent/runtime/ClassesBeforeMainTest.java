package io.mech.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The names initialised before main name classes that exist: a rename of mech's, or a JDK's that none has, would pass over them silently. */
class ClassesBeforeMainTest {

    @Test
    void everyOwnNameIsAClassOfMechsAndNearlyEveryJdkNameIsThisJdksClass() {
        final String[][] names = ClassesBeforeMain.names();
        final List<String> missing = new ArrayList<>();
        for (final String own : names[1]) {
            if (!exists(own, ClassesBeforeMain.class.getClassLoader())) {
                missing.add(own);
            }
        }
        assertEquals(List.of(), missing, "mech's own classes by name");
        final List<String> notHere = new ArrayList<>();
        for (final String jdk : names[0]) {
            if (!exists(jdk, null)) {
                notHere.add(jdk);
            }
        }
        // JDK 17 lacks the few that JDK 21 split out of its file and socket dispatchers
        assertTrue(notHere.size() <= 3, Runtime.version() + " lacks " + notHere);
    }

    private static boolean exists(final String name, final ClassLoader loader) {
        try {
            Class.forName(name, false, loader);
            return true;
        } catch (final ClassNotFoundException e) {
            return false;
        }
    }
}
