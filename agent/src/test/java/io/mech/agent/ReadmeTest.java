package io.mech.agent;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's option table is the one mech prints, so the two never drift apart. */
class ReadmeTest {

    @Test
    void readmeHoldsTheCurrentOptionTable() throws Exception {
        final String readme = Files.readString(Path.of("../README.md"));
        assertTrue(readme.contains(Main.optionTable()),
            "README.md's option table is out of date: paste the output of 'java -jar agent/target/mech.jar options'");
    }
}
