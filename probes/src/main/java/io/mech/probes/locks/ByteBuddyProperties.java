package io.mech.probes.locks;

/** System properties ByteBuddy reads when its classes load. */
final class ByteBuddyProperties {

    private ByteBuddyProperties() {
    }

    /**
     * Turns off ByteBuddy's Nexus, whose set-up touches sun.misc.Unsafe and makes JDK 24+ print a
     * warning. Set under both names, plain and as relocated in mech.jar (relocation rewrites the
     * string, so both may read the same), before any ByteBuddy class loads; a value the user set
     * is kept.
     */
    static void quiet() {
        for (final String name : new String[] {"net.bytebuddy.nexus.disabled", "io.mech.shaded.net.bytebuddy.nexus.disabled"}) {
            if (System.getProperty(name) == null) {
                System.setProperty(name, "true");
            }
        }
    }
}
