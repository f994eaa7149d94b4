package io.mech.agent;

import io.mech.hiccup.ControlJvm;
import io.mech.hiccup.HiccupRecorder;
import io.mech.hiccup.HiccupSettings;
import io.mech.hiccup.LogPath;
import java.nio.file.Path;
import java.time.LocalDateTime;

/**
 * mech running inside a host JVM: the parts the options switch on, stopped together by one
 * shutdown hook that writes the last interval before the final report.
 */
final class Mech {

    /**
     * The system property in which a running mech publishes its absolute log path, so that
     * {@code mech attach} (and {@code jcmd <pid> VM.system_properties}) can tell where it goes.
     */
    static final String LOG_PROPERTY = "io.mech.hiccup.log";

    private final HiccupRecorder hiccups;
    private final ControlJvm control;
    private final Reporter reporter;

    private Mech(final HiccupRecorder hiccups, final ControlJvm control, final Reporter reporter) {
        this.hiccups = hiccups;
        this.control = control;
        this.reporter = reporter;
    }

    /** Reads the options and starts what they switch on. */
    static void start(final String agentArgs) {
        final Options options = Options.parse(agentArgs, System.getProperties(), System.getenv(), Console::warn);
        if (!options.flag(Option.ENABLED)) {
            return;
        }
        HiccupRecorder hiccups = null;
        ControlJvm control = null;
        if (options.flag(Option.HICCUP)) {
            final HiccupSettings settings = hiccupSettings(options);
            hiccups = HiccupRecorder.start(settings, Console::warn);
            if (settings.log() != null) {
                System.setProperty(LOG_PROPERTY, settings.log().toString());
                if (options.flag(Option.HICCUP_CONTROL)) {
                    control = ControlJvm.start(OwnJar.path(), settings, Console::warn);
                }
            } else if (options.flag(Option.HICCUP_CONTROL)) {
                Console.warn("option 'hiccup.control' needs a hiccup.log for the control JVM to write; no control JVM");
            }
        }
        final Mech mech = new Mech(hiccups, control, new Reporter(options, hiccups, control));
        Runtime.getRuntime().addShutdownHook(new Thread(mech::stop, "mech-shutdown"));
        mech.reporter.startPeriodic();
    }

    private static HiccupSettings hiccupSettings(final Options options) {
        final String template = options.text(Option.HICCUP_LOG);
        final Path log = template.isEmpty() ? null
            : Path.of(LogPath.expand(template, ProcessHandle.current().pid(), LocalDateTime.now())).toAbsolutePath();
        try {
            return new HiccupSettings(options.nanos(Option.HICCUP_RESOLUTION), options.nanos(Option.HICCUP_INTERVAL),
                options.nanos(Option.HICCUP_DELAY), log);
        } catch (final IllegalArgumentException e) {
            Console.warn("hiccup options: " + e.getMessage() + "; using the defaults for hiccup.resolution, "
                + "hiccup.interval and hiccup.delay");
            final Options defaults = Options.defaults();
            return new HiccupSettings(defaults.nanos(Option.HICCUP_RESOLUTION), defaults.nanos(Option.HICCUP_INTERVAL),
                defaults.nanos(Option.HICCUP_DELAY), log);
        }
    }

    private void stop() {
        try {
            if (hiccups != null) {
                hiccups.close();
            }
            if (control != null) {
                control.close();
            }
            reporter.finalReport();
        } catch (final Throwable t) {
            Console.warn("shutdown: " + t);
        }
    }
}
