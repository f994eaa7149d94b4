package io.mech.agent.runtime;

import io.mech.hiccup.JfrRepository;
import io.mech.hiccup.cause.OwnOperations;
import java.time.Duration;
import java.util.function.Consumer;
import jdk.jfr.FlightRecorder;
import jdk.jfr.consumer.RecordingStream;

/**
 * mech's one JFR stream: the hiccup causes and the lock probe subscribe to it before it starts,
 * so the JVM parses one stream for both. It is ordered, because the causes read an event
 * ending at T as proof that every event that ended before T was delivered.
 *
 * <p>Event settings are JVM-wide: what the parts enable shows in the user's own recordings too.
 *
 * <p>Shutdown. {@code RecordingStream.start()} holds JFR's {@code PlatformRecorder} monitor while
 * the JVM begins recording; begun after JFR's own shutdown hook has run, that never returns, and
 * anything that then closes the stream waits forever for the monitor (a host exiting half a second
 * after start-up hung this way). So the stream moves {@code NEW -> STARTING -> RUNNING}: it
 * starts only from NEW and before the JVM's shutdown has begun ({@link ShutdownState}, which
 * mech's hook sets first), and mech never closes it; at exit JFR's own hook stops it with every
 * other recording.
 *
 * <p>Thread contract: {@link #start} is called once, by {@code mech-start}; the state moves on
 * {@code mech-jfr-stream} and the stream's flushes, guarded by this object's monitor, never by JFR's.
 */
public final class JfrStream {

    /**
     * The system property in which the stream publishes, once it records, the epoch millisecond
     * it was found recording: stalls from then on are attributed, and JFR lock events heard
     * ({@code jcmd <pid> VM.system_properties} reads it).
     */
    static final String SINCE_PROPERTY = "io.mech.jfr.since";

    private static final int NEW = 0;
    private static final int STARTING = 1;
    private static final int RUNNING = 2;

    private final RecordingStream stream;
    /** Guarded by {@code this}. */
    private int state = NEW;
    /**
     * JFR's start as one of mech's own operations, from the call to its first flush: beginning
     * to record retransforms the JDK's I/O classes for JFR's file and socket events, two class
     * redefinitions that stop the host 10 to 90 ms, which mech caused. Guarded by {@code this}.
     */
    private OwnOperations.Operation starting;

    private JfrStream(final RecordingStream stream) {
        this.stream = stream;
    }

    /**
     * Opens the stream, not started. The JVM's recorder starts here, where JFR retransforms the
     * JDK's I/O classes for its file and socket events: a class redefinition that stops the host
     * 5 ms and more (attached to a 6 s host: 5.9 ms), which is mech's own operation.
     *
     * @param without  what the parts do without JFR, for the warning
     * @param own      mech's own operations, which the opening is one of
     * @param warnings told once when JFR is not available
     * @return the stream, or null without JFR
     */
    static JfrStream open(final String without, final OwnOperations own, final Consumer<String> warnings) {
        final OwnOperations.Operation opening = own.begin("JFR start");
        try {
            if (!available()) {
                warnings.accept("JFR is not available in this JVM; " + without);
                return null;
            }
            final RecordingStream stream = new RecordingStream();
            try {
                stream.setMaxAge(Duration.ofSeconds(30));
                stream.setOrdered(true);
                return new JfrStream(stream);
            } catch (final OutOfMemoryError full) {
                // opened again once the heap has room: this recording must not stay registered beside the next
                stream.close();
                throw full;
            }
        } catch (final RuntimeException | LinkageError e) {
            if (!ShutdownState.begun()) {
                warnings.accept("JFR stream not started (" + e + "); " + without);
            }
            return null;
        } finally {
            own.end(opening);
        }
    }

    /** Whether this JVM has JFR: false where it was built or started without ({@code -XX:-FlightRecorder}). */
    public static boolean available() {
        try {
            return FlightRecorder.isAvailable();
        } catch (final LinkageError noJfrModule) {
            return false;
        }
    }

    /** The stream, for the parts to subscribe to before {@link #start}. */
    RecordingStream stream() {
        return stream;
    }

    /**
     * Starts delivering on the daemon thread {@code mech-jfr-stream}: startAsync() would run the
     * stream on a non-daemon thread of its own, which keeps the host from exiting. Does nothing
     * once the JVM's shutdown has begun.
     */
    void start(final OwnOperations own, final Consumer<String> warnings) {
        // The JVM may make its JFR repository for this stream: keep what a killed host leaves there from other users.
        final JfrRepository repository = JfrRepository.beforeStart();
        stream.onFlush(new Runnable() {
            @Override
            public void run() {
                repository.makePrivate(warnings);
                running(own);
            }
        });
        final Thread thread = new Thread(new Runnable() {
            @Override
            public void run() {
                if (!starting(own)) {
                    return;
                }
                try {
                    stream.start();
                } catch (final RuntimeException e) {
                    if (!ShutdownState.begun()) {
                        warnings.accept("JFR stream stopped (" + e + "); later hiccups are attributed from HotSpot's counters alone, "
                            + "and JFR's lock events are lost");
                    }
                } finally {
                    // a stream closed by JFR's own hook before its first flush, or an Error, ends it too
                    started(own);
                }
            }
        }, "mech-jfr-stream");
        thread.setDaemon(true);
        thread.start();
    }

    /** Moves NEW to STARTING unless the JVM's shutdown has begun. */
    private synchronized boolean starting(final OwnOperations own) {
        if (state != NEW || ShutdownState.begun()) {
            return false;
        }
        state = STARTING;
        starting = own.begin("JFR start");
        return true;
    }

    /** Ends JFR's start as mech's own operation, once. */
    private synchronized void started(final OwnOperations own) {
        if (starting != null) {
            own.end(starting);
            starting = null;
        }
    }

    /**
     * The first flush proves that the recording has begun: from then on mech's events are
     * recorded, which {@link #SINCE_PROPERTY} tells whoever asks.
     */
    private void running(final OwnOperations own) {
        synchronized (this) {
            started(own);
            if (state != STARTING) {
                return;
            }
            state = RUNNING;
        }
        System.setProperty(SINCE_PROPERTY, Long.toString(System.currentTimeMillis()));
    }
}
