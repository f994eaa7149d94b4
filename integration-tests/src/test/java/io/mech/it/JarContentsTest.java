package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * mech.jar goes onto the host's class path: everything in it sits under {@code io/mech/}, so
 * nothing of mech's can shadow a class or resource of the host's, except the manifest and the
 * license files under {@code META-INF/}; and those licenses are there, mech's and each shaded
 * dependency's that ships one.
 */
@QuietHosts
class JarContentsTest {

    private static final Set<String> META_INF = Set.of("META-INF/MANIFEST.MF", "META-INF/LICENSE", "META-INF/NOTICE");

    @Test
    void everythingIsUnderIoMechButTheManifestAndTheLicenses() throws Exception {
        final List<String> strays = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        try (JarFile jar = new JarFile(Paths.mechJar().toFile())) {
            for (final JarEntry entry : Collections.list(jar.entries())) {
                final String name = entry.getName();
                names.add(name);
                final boolean mechs = name.startsWith("io/mech/") || name.equals("io/");
                final boolean licence = META_INF.contains(name) || name.equals("META-INF/") || name.startsWith("META-INF/licenses/");
                if (!mechs && !licence) {
                    strays.add(name);
                }
            }
            assertEquals(null, jar.getManifest().getMainAttributes().getValue("Multi-Release"),
                "no versioned classes, so no Multi-Release");
        }
        assertEquals(List.of(), strays, "entries outside io/mech/ and the licenses");
        for (final String required : List.of("META-INF/LICENSE", "META-INF/NOTICE", "META-INF/licenses/byte-buddy/LICENSE",
            "META-INF/licenses/byte-buddy/NOTICE", "META-INF/licenses/byte-buddy/ASM", "META-INF/licenses/HdrHistogram/LICENSE.txt",
            "io/mech/native/linux-x64/libasyncProfiler.so")) {
            assertTrue(names.contains(required), required + " is in mech.jar");
        }
    }
}
