package io.mech.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The names initialised before main name classes that exist: a rename of mech's, or a JDK's that none has, would pass over them silently. */
class ClassesBeforeMainTest {

    /**
     * The JDK names an older JDK lacks, and the first of the JDKs mech is tested on (17, 21, 25)
     * found to have them: JDK 21 split the file and socket dispatchers and has its sleep event, its
     * shortest decimal of a double and thread containers, and JDK 25 formats dates through a helper
     * of its own. Any other name missing is a mistake.
     */
    private static final Map<String, Integer> SINCE = Map.ofEntries(
        Map.entry("sun.nio.ch.UnixDispatcher", 21),
        Map.entry("sun.nio.ch.UnixFileDispatcherImpl", 21),
        Map.entry("jdk.net.ExtendedSocketOptions$2", 21),
        Map.entry("jdk.internal.event.ThreadSleepEvent", 21),
        Map.entry("jdk.internal.math.DoubleToDecimal", 21),
        Map.entry("jdk.internal.math.MathUtils", 21),
        Map.entry("jdk.internal.math.ToDecimal", 21),
        Map.entry("jdk.internal.vm.SharedThreadContainer", 21),
        Map.entry("jdk.internal.vm.StackableScope", 21),
        Map.entry("jdk.internal.vm.ThreadContainers", 21),
        Map.entry("jdk.internal.vm.ThreadContainers$RootContainer$TrackingRootContainer", 21),
        Map.entry("jdk.internal.util.DateTimeHelper", 25));

    @Test
    void everyOwnNameIsAClassOfMechsAndEveryJdkNameThisJdksClassUnlessNewer() {
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
        final List<String> unexplained = new ArrayList<>();
        for (final String name : notHere) {
            final Integer since = SINCE.get(name);
            if (since == null || Runtime.version().feature() >= since) {
                unexplained.add(name);
            }
        }
        assertEquals(List.of(), unexplained, Runtime.version() + " lacks these, and no JDK before the one named in SINCE lacks them");
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
