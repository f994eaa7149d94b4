package io.mech.probes;

import java.util.Arrays;
import java.util.List;

/**
 * The JVM's live platform threads, listed from the root thread group: a listing, not a stack
 * walk, so no thread is stopped for it (as {@code Thread.getAllStackTraces()} would stop them all).
 */
public final class LiveThreads {

    private LiveThreads() {
    }

    /** @return the threads alive as the listing was taken; any thread may call it */
    public static List<Thread> list() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] threads = new Thread[root.activeCount() + 16];
        int count;
        while ((count = root.enumerate(threads, true)) == threads.length) {
            threads = new Thread[threads.length * 2];
        }
        return Arrays.asList(threads).subList(0, count);
    }
}
