package io.mech.probes.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ClassRenameTest {

    private static final String FROM = "io/mech/probes/weave/RenameTemplate";
    private static final String TO = "io/mech/probes/weave/elsewhere/MechRenamed";

    /** Defines one renamed class, finding everything else through the test's loader. */
    private static final class OneClass extends ClassLoader {
        OneClass() {
            super(ClassRenameTest.class.getClassLoader());
        }

        Class<?> define(final byte[] classFile) {
            return defineClass(TO.replace('/', '.'), classFile, 0, classFile.length);
        }
    }

    private static byte[] renamed() throws Exception {
        return ClassRename.rename(JdkBridge.classFile(RenameTemplate.class.getName()), FROM, TO);
    }

    @Test
    void theRenamedClassRunsUnderItsNewNameThroughEveryReference() throws Exception {
        final Class<?> renamed = new OneClass().define(renamed());
        assertEquals(TO.replace('/', '.'), renamed.getMethod("selfName").invoke(null));
        assertEquals(5, renamed.getMethod("chain", int.class).invoke(null, 5));
        assertEquals(TO.replace('/', '.'), renamed.getDeclaredField("last").getType().getName());
        assertEquals("[L" + TO.replace('/', '.') + ";", renamed.getDeclaredField("next").getType().getName());
    }

    @Test
    void aClassWhoseNameBeginsWithTheOldOneKeepsItsName() throws Exception {
        final Class<?> renamed = new OneClass().define(renamed());
        assertEquals("neighbour", renamed.getMethod("neighbour").invoke(null));
        final String constants = new String(renamed(), StandardCharsets.ISO_8859_1);
        assertFalse(constants.replace(FROM + "Neighbour", "").contains(FROM), "no reference to the old name is left");
    }

    @Test
    void bytesThatAreNoClassFileAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> ClassRename.rename(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, FROM, TO));
    }
}
