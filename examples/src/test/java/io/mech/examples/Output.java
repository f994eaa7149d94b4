package io.mech.examples;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Captures what {@link Main#run} prints. */
final class Output {
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

    PrintStream out() {
        return out;
    }

    PrintStream err() {
        return err;
    }

    String stdout() {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    String stderr() {
        return errBytes.toString(StandardCharsets.UTF_8);
    }
}
