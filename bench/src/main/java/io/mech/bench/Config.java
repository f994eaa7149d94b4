package io.mech.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** The mech configurations compared with a run without mech, and jHiccup's, the reference they are read beside. */
enum Config {
    /** No agent: the baseline every other configuration is compared with. */
    OFF("without mech"),
    /**
     * jHiccup as an agent, logging every 5 s as mech does by default, so that both write their
     * logs as often; the floor part, which reads the logs, has both log every second instead.
     */
    JHICCUP("jHiccup"),
    /**
     * No agent, JFR recording with its default settings from the command line: the floor under
     * any tool that, as mech's causes and lock probe do, keeps a JFR recording running.
     */
    JFR("JFR default.jfc, no agent"),
    /**
     * No agent, async-profiler's lock mode from the command line at its default threshold, writing
     * JFR: the reference for what watching contended locks costs, beside mech's lock probe.
     */
    ASYNC_PROFILER_LOCK("async-profiler lock mode, no agent"),
    /** jHiccup logging every second, beside {@link #HICCUP_EVERY_SECOND}. */
    JHICCUP_EVERY_SECOND("jHiccup, logging every second"),
    /** The hiccup recorder and nothing else. */
    HICCUP("hiccup only"),
    /** The hiccup recorder alone, sampling every millisecond and logging every second, beside {@link #JHICCUP_EVERY_SECOND}. */
    HICCUP_EVERY_SECOND("hiccup only, logging every second"),
    /** The hiccup recorder and the lock probe (JFR stream and AQS advice). */
    LOCKS("hiccup + locks"),
    /**
     * The lean configuration: the hiccup recorder and its causes, the lock probe and /metrics off,
     * so the causes read HotSpot's counters and open JFR only when a stall needs it.
     */
    CAUSES("hiccup + causes (lean, JFR on demand)"),
    /** The hiccup recorder and its causes with a JFR stream from the first second, as before the counters, beside {@link #CAUSES}. */
    CAUSES_JFR("hiccup + causes, JFR from 1 s"),
    /** The hiccup recorder, its causes and the /metrics endpoint, scraped every second while it runs. */
    EXPORTER("hiccup + causes + exporter"),
    /** mech with no options: everything it switches on by default. */
    DEFAULTS("mech defaults"),
    /** The false-sharing probe alone, its window open from start-up to exit. */
    FALSESHARING_WINDOW("false-sharing window open"),
    /** The false-sharing probe alone, after a one-second window that closed before the measured run. */
    FALSESHARING_AFTER("false-sharing after its window"),
    /**
     * The false-sharing probe alone, its window an hour away: the included classes woven as they
     * loaded, every counting call switched off, in steady state.
     */
    FALSESHARING_WOVEN("false-sharing woven, switched off"),
    /** The false-sharing probe alone with its default delay: what switching it on costs a start-up. */
    FALSESHARING("false-sharing probe on"),
    /** The hiccup recorder and the queue probe (woven from premain, sampling every second). */
    QUEUES("hiccup + queues"),
    /** The hiccup recorder and the profiler's always-on profile, no trigger firing. */
    PROFILER_CONTINUOUS("hiccup + continuous profile"),
    /** The hiccup recorder alone, with one {@code mech profile} capture taken while it runs. */
    PROFILER_CAPTURE("hiccup + one capture"),
    /**
     * The hiccup recorder, its causes and the profiler in trigger mode, no trigger firing: what
     * runs all the time is the time-to-safepoint session, sampling only while safepoints wait.
     * Read beside {@link #CAUSES}.
     */
    PROFILER_TTSP("hiccup + causes + profiler (ttsp sampling)");

    /** The false-sharing probe with nothing else of mech's running. */
    private static final String FALSESHARING_ONLY = "report=off,prometheus=off,hiccup=off,probes.locks=off,probes.falsesharing=on";

    final String label;

    Config(final String label) {
        this.label = label;
    }

    /**
     * The JVM arguments that set this configuration up, logging under the work directory and
     * serving on port. The queue probe is on by default: every mech configuration but the
     * defaults says whether it runs.
     *
     * @throws IllegalStateException for jHiccup's configurations when the bench has no jHiccup jar
     * @throws IOException              when async-profiler's library cannot be copied out of mech.jar
     */
    List<String> jvmArgs(final Setup setup, final int port) throws IOException {
        if (isJHiccup()) {
            final JHiccup jHiccup = setup.jHiccup().orElseThrow(() -> new IllegalStateException(label + " needs jHiccup's jar"));
            return List.of(jHiccup.agentArg(this == JHICCUP ? 5_000 : 1_000, setup.workDir().resolve(logName())));
        }
        if (this == JFR) {
            return List.of("-XX:StartFlightRecording", "-Xlog:jfr+startup=warning");
        }
        if (this == ASYNC_PROFILER_LOCK) {
            return List.of("-agentpath:" + setup.asyncProfiler() + "=start,event=lock,jfr,file=" + setup.workDir().resolve("lock-%p.jfr"));
        }
        final List<String> args = mechArgsWithoutQueues(setup.mechJar(), setup.workDir(), port);
        if (this == OFF || this == DEFAULTS) {
            return args;
        }
        return List.of(args.get(0) + ",probes.queues=" + (this == QUEUES ? "on" : "off"));
    }

    /** The hiccup log that the run of this configuration with the given pid writes (jHiccup's or mech's recorder alone). */
    Path hiccupLog(final Path workDir, final long pid) {
        return workDir.resolve(logName().replace("%pid", Long.toString(pid)));
    }

    boolean isJHiccup() {
        return this == JHICCUP || this == JHICCUP_EVERY_SECOND;
    }

    /** Whether a reference read beside mech (jHiccup, or JFR alone) rather than mech, which the targets bind. */
    boolean isReference() {
        return isJHiccup() || this == JFR || this == ASYNC_PROFILER_LOCK;
    }

    private String logName() {
        return (isJHiccup() ? "jh" : "h") + ".%pid.hlog";
    }

    private List<String> mechArgsWithoutQueues(final Path mechJar, final Path workDir, final int port) {
        final String log = "hiccup.log=" + workDir.resolve(logName());
        switch (this) {
            case OFF:
            case JFR:
            case ASYNC_PROFILER_LOCK:
                return List.of();
            case HICCUP_EVERY_SECOND:
                return List.of("-javaagent:" + mechJar + "=report=off,prometheus=off,hiccup.causes=off,probes.locks=off,"
                    + "hiccup.resolution=1ms,hiccup.interval=1s," + log);
            case HICCUP:
            case QUEUES:
            case PROFILER_CAPTURE:
                return List.of("-javaagent:" + mechJar + "=report=off,prometheus=off,hiccup.causes=off,probes.locks=off," + log);
            case LOCKS:
                return List.of("-javaagent:" + mechJar + "=report=off,prometheus=off,hiccup.causes=off,probes.locks=on," + log);
            case CAUSES:
                return List.of("-javaagent:" + mechJar + "=report=off,prometheus=off,hiccup.causes=on,probes.locks=off," + log);
            case CAUSES_JFR:
                return List.of("-javaagent:" + mechJar + "=report=off,prometheus=off,hiccup.causes=on,hiccup.causes.jfr=on,probes.locks=off,"
                    + log);
            case EXPORTER:
                return List.of("-javaagent:" + mechJar + "=report=off,hiccup.causes=on,probes.locks=off,prometheus.port=" + port + "," + log);
            case PROFILER_TTSP:
                return List.of("-javaagent:" + mechJar + "=report=off,prometheus=off,hiccup.causes=on,probes.locks=off," + log
                    + ",profiler=on,hiccup.profiler-threshold=1h,profiler.dir=" + workDir.resolve("captures"));
            case PROFILER_CONTINUOUS:
                return List.of("-javaagent:" + mechJar + "=report=off,prometheus=off,hiccup.causes=off,probes.locks=off," + log
                    + ",profiler=on,profiler.mode=continuous,hiccup.profiler-threshold=1h,profiler.dir=" + workDir.resolve("captures"));
            case FALSESHARING_WINDOW:
                return List.of("-javaagent:" + mechJar + "=" + FALSESHARING_ONLY + ",probes.falsesharing.delay=0,probes.falsesharing.window=3600s");
            case FALSESHARING_WOVEN:
                return List.of("-javaagent:" + mechJar + "=" + FALSESHARING_ONLY + ",probes.falsesharing.delay=3600s");
            case FALSESHARING_AFTER:
                return List.of("-javaagent:" + mechJar + "=" + FALSESHARING_ONLY + ",probes.falsesharing.delay=0,probes.falsesharing.window=1s");
            case FALSESHARING:
                return List.of("-javaagent:" + mechJar + "=" + FALSESHARING_ONLY);
            default:
                return List.of("-javaagent:" + mechJar + "=prometheus.port=" + port);
        }
    }
}
