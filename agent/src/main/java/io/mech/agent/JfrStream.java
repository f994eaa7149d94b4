package io.mech.agent;

import io.mech.hiccup.JfrRepository;
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
 */
final class JfrStream implements AutoCloseable {

    private final RecordingStream stream;

    private JfrStream(final RecordingStream stream) {
        this.stream = stream;
    }

    /**
     * Opens the stream, not started.
     *
     * @param without  what the parts do without JFR, for the warning
     * @param warnings told once when JFR is not available
     * @return the stream, or null without JFR
     */
    static JfrStream open(final String without, final Consumer<String> warnings) {
        try {
            if (!FlightRecorder.isAvailable()) {
                warnings.accept("JFR is not available in this JVM; " + without);
                return null;
            }
            final RecordingStream stream = new RecordingStream();
            stream.setMaxAge(Duration.ofSeconds(30));
            stream.setOrdered(true);
            return new JfrStream(stream);
        } catch (final RuntimeException | LinkageError e) {
            if (!shuttingDown()) {
                warnings.accept("JFR stream not started (" + e + "); " + without);
            }
            return null;
        }
    }

    /** The stream, for the parts to subscribe to before {@link #start}. */
    RecordingStream stream() {
        return stream;
    }

    /**
     * Starts delivering on the daemon thread {@code mech-jfr-stream}: startAsync() would run the
     * stream on a non-daemon thread of its own, which keeps the host from exiting.
     */
    void start(final Consumer<String> warnings) {
        // The JVM may make its JFR repository for this stream: keep what a killed host leaves there from other users.
        final JfrRepository repository = JfrRepository.beforeStart();
        stream.onFlush(new Runnable() {
            @Override
            public void run() {
                repository.makePrivate(warnings);
            }
        });
        final Thread thread = new Thread(new Runnable() {
            @Override
            public void run() {
                try {
                    stream.start();
                } catch (final RuntimeException e) {
                    if (!shuttingDown()) {
                        warnings.accept("JFR stream stopped (" + e + "); later hiccups and locks are not attributed");
                    }
                }
            }
        }, "mech-jfr-stream");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Whether the JVM is already shutting down, as it is when a short-lived host exits while
     * mech still starts: JFR then refuses, and there is nothing left worth a warning.
     */
    private static boolean shuttingDown() {
        final Thread probe = new Thread("mech-shutdown-probe");
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (final IllegalStateException e) {
            return true;
        }
    }

    @Override
    public void close() {
        stream.close();
    }
}
