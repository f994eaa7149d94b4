package io.mech.bench;

import java.nio.file.Path;
import java.util.List;

/** The mech configurations compared with a run without mech. */
enum Config {
    /** No agent: the baseline every other configuration is compared with. */
    OFF("without mech"),
    /** The hiccup recorder and nothing else. */
    HICCUP("hiccup only"),
    /** The hiccup recorder and the lock probe (JFR stream and AQS advice). */
    LOCKS("hiccup + locks"),
    /** The hiccup recorder and the JFR stream that attributes its stalls. */
    CAUSES("hiccup + causes (JFR)"),
    /** The hiccup recorder, its causes and the /metrics endpoint, scraped every second while it runs. */
    EXPORTER("hiccup + causes + exporter"),
    /** mech with no options: everything it switches on by default. */
    DEFAULTS("mech defaults"),
    /** The false-sharing probe alone, its window open from start-up to exit. */
    FALSESHARING_WINDOW("false-sharing window open"),
    /** The false-sharing probe alone, after a one-second window that closed before the measured run. */
    FALSESHARING_AFTER("false-sharing after its window"),
    /** The false-sharing probe alone with its default delay: what switching it on costs a start-up. */
    FALSESHARING("false-sharing probe on"),
    /** The hiccup recorder and the queue probe (woven from premain, sampling every second). */
    QUEUES("hiccup + queues"),
    /** The hiccup recorder and the profiler's always-on profile, no trigger firing. */
    PROFILER_CONTINUOUS("hiccup + continuous profile"),
    /** The hiccup recorder alone, with one {@code mech profile} capture taken while it runs. */
    PROFILER_CAPTURE("hiccup + one capture");

    /** The false-sharing probe with nothing else of mech's running. */
    private static final String FALSESHARING_ONLY = "report=off,prometheus=off,hiccup=off,probes.locks=off,probes.falsesharing=on";

    final String label;

    Config(final String label) {
        this.label = label;
    }

    /**
     * The JVM arguments that set this configuration up, logging under workDir and serving on port.
     * The queue probe is on by default: every configuration but the defaults says whether it runs.
     */
    List<String> jvmArgs(final Path mechJar, final Path workDir, final int port) {
        final List<String> args = jvmArgsWithoutQueues(mechJar, workDir, port);
        if (this == OFF || this == DEFAULTS) {
            return args;
        }
        return List.of(args.get(0) + ",probes.queues=" + (this == QUEUES ? "on" : "off"));
    }

    private List<String> jvmArgsWithoutQueues(final Path mechJar, final Path workDir, final int port) {
        final String log = "hiccup.log=" + workDir.resolve("h.%pid.hlog");
        switch (this) {
            case OFF:
                return List.of();
            case HICCUP:
            case QUEUES:
            case PROFILER_CAPTURE:
                return List.of("-javaagent:" + mechJar + "=report=off,prometheus=off,hiccup.causes=off,probes.locks=off," + log);
            case LOCKS:
                return List.of("-javaagent:" + mechJar + "=report=off,prometheus=off,hiccup.causes=off,probes.locks=on," + log);
            case CAUSES:
                return List.of("-javaagent:" + mechJar + "=report=off,prometheus=off,hiccup.causes=on,probes.locks=off," + log);
            case EXPORTER:
                return List.of("-javaagent:" + mechJar + "=report=off,hiccup.causes=on,probes.locks=off,prometheus.port=" + port + "," + log);
            case PROFILER_CONTINUOUS:
                return List.of("-javaagent:" + mechJar + "=report=off,prometheus=off,hiccup.causes=off,probes.locks=off," + log
                    + ",profiler=on,profiler.mode=continuous,profiler.hiccup-threshold=1h,profiler.dir=" + workDir.resolve("captures"));
            case FALSESHARING_WINDOW:
                return List.of("-javaagent:" + mechJar + "=" + FALSESHARING_ONLY + ",probes.falsesharing.delay=0,probes.falsesharing.window=3600s");
            case FALSESHARING_AFTER:
                return List.of("-javaagent:" + mechJar + "=" + FALSESHARING_ONLY + ",probes.falsesharing.delay=0,probes.falsesharing.window=1s");
            case FALSESHARING:
                return List.of("-javaagent:" + mechJar + "=" + FALSESHARING_ONLY);
            default:
                return List.of("-javaagent:" + mechJar + "=prometheus.port=" + port);
        }
    }
}
