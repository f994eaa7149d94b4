package io.mech.it.hosts;

import net.bytebuddy.ByteBuddy;
import net.bytebuddy.dynamic.loading.ClassLoadingStrategy;
import org.HdrHistogram.Histogram;

/**
 * A host application that ships its own HdrHistogram and ByteBuddy, of other versions than
 * mech's, and uses both while mech runs beside it.
 */
public final class LibraryHost {

    private LibraryHost() {
    }

    /**
     * Uses both libraries and prints where they came from.
     *
     * @param args milliseconds to keep running
     * @throws Exception when either library fails, which the test must see
     */
    public static void main(final String[] args) throws Exception {
        final Histogram histogram = new Histogram(3);
        final long end = System.currentTimeMillis() + Long.parseLong(args[0]);
        long value = 1;
        while (System.currentTimeMillis() < end) {
            histogram.recordValue(value++ % 1000 + 1);
            if (value % 100_000 == 0) {
                Thread.sleep(1);
            }
        }
        final Class<?> generated = new ByteBuddy().subclass(Object.class).name("io.mech.it.hosts.Generated").make()
            .load(LibraryHost.class.getClassLoader(), ClassLoadingStrategy.Default.INJECTION).getLoaded();
        System.out.println("hdrhistogram=" + Histogram.class.getProtectionDomain().getCodeSource().getLocation());
        System.out.println("bytebuddy=" + ByteBuddy.class.getProtectionDomain().getCodeSource().getLocation());
        System.out.println("generated=" + generated.getName() + " count=" + histogram.getTotalCount());
    }
}
