package io.mech.bench;

/** The hello-world JVM whose start-up time mech must not stretch. */
public final class Hello {

    private Hello() {
    }

    /**
     * Prints one line.
     *
     * @param args ignored
     */
    public static void main(final String[] args) {
        System.out.println("hello");
    }
}
