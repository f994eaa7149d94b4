package io.mech.agent.runtime;

import java.io.File;
import java.net.URISyntaxException;

/** Where mech.jar is: the control JVM runs from it and attach loads it. */
public final class OwnJar {

    private OwnJar() {
    }

    public static String path() {
        try {
            return new File(OwnJar.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        } catch (final URISyntaxException e) {
            throw new IllegalStateException("cannot locate mech.jar", e);
        }
    }
}
