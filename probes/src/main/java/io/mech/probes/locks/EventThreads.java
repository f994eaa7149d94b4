package io.mech.probes.locks;

import io.mech.probes.MechThreads;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * Whether the thread of a JFR event is mech's. JFR names an event's thread by the name JFR first
 * wrote down for it, so on JDK 25 the JDK HTTP server's dispatcher, which mech renames once
 * /metrics has started, still reads {@code HTTP-Dispatcher}, a name a host's own server uses too.
 * A recorded name that is not mech's is therefore checked once more against the live thread of
 * that id (ThreadMXBean without a stack: no safepoint), and the answer is kept per thread id.
 *
 * <p>Not thread-safe: used by the JFR stream's one thread, where events arrive a few hundred a
 * second at most once thresholds apply; it allocates only for a thread it has not seen.
 */
final class EventThreads {

    /** Thread ids remembered before the memory starts again; ids are never reused in a JVM. */
    private static final int REMEMBERED = 4096;

    private final Map<Long, Boolean> mechs = new HashMap<>();
    private ThreadMXBean live;

    /**
     * @param recorded the name JFR recorded, null for none
     * @param id       the Java thread id, -1 for a thread that is not a Java thread
     * @return whether the thread is mech's, by the name JFR recorded or by its name now
     */
    boolean isMechs(final String recorded, final long id) {
        if (MechThreads.isMechs(recorded)) {
            return true;
        }
        if (id < 0) {
            return false;
        }
        Boolean known = mechs.get(id);
        if (known == null) {
            if (mechs.size() >= REMEMBERED) {
                mechs.clear();
            }
            if (live == null) {
                live = ManagementFactory.getThreadMXBean();
            }
            // a thread that has ended (null) is taken by its recorded name, which was not mech's
            final ThreadInfo now = live.getThreadInfo(id);
            known = now != null && MechThreads.isMechs(now.getThreadName());
            mechs.put(id, known);
        }
        return known;
    }
}
