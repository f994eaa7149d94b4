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
        for (final String own : concat(names[2], names[3])) {
            if (!exists(own, ClassesBeforeMain.class.getClassLoader())) {
                missing.add(own);
            }
        }
        assertEquals(List.of(), missing, "mech's own classes by name");
        final List<String> notHere = new ArrayList<>();
        for (final String jdk : concat(names[0], names[1])) {
            if (!exists(jdk, null)) {
                notHere.add(jdk);
            }
        }
        // JDK 17 lacks the few that JDK 21 split out of its file and socket dispatchers
        assertTrue(notHere.size() <= 3, Runtime.version() + " lacks " + notHere);
    }

    private static List<String> concat(final String[] first, final String[] second) {
        final List<String> all = new ArrayList<>(List.of(first));
        all.addAll(List.of(second));
        return all;
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
