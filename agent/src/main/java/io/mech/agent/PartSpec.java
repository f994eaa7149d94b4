package io.mech.agent;

import java.util.List;

/**
 * A kind of part mech can run: its name, the options it brings, when it starts and how. One
 * implementation per part, a constant of the part's class; {@link Parts#ALL} lists them, and
 * {@link Mech} starts those whose options switch them on, each at its {@link Stage}, in that order.
 *
 * <p>Implementations are stateless: every call may come from any thread.
 */
interface PartSpec {

    /** When a part starts, relative to the rest of mech. */
    enum Stage {
        /**
         * With the recorder, before /metrics: parts that need neither JFR nor the others. Under
         * -javaagent, a part whose {@link #beforeMain} is true starts earlier still, on the host's
         * own thread in premain.
         */
        EARLY,
        /**
         * After the host's first second (under -javaagent), with mech's one JFR stream not yet
         * started: a part subscribes to the events it needs in {@link #start}.
         */
        WITH_JFR,
        /** After every other part: a part that consumes what the others offer, such as their triggers. */
        LAST
    }

    /** A short, stable name: the component of the part's internal errors and its report section. */
    String name();

    /** The options this part reads, its switch first; they join the core's in the options table. */
    List<Option> options();

    /** Whether the options switch this part on. */
    boolean wanted(Options options);

    /** When the part starts. */
    Stage stage();

    /**
     * Whether, under -javaagent, the part starts on the host's thread before main runs: for a part
     * that must weave classes as they load. Only {@link Stage#EARLY} parts may.
     */
    default boolean beforeMain() {
        return false;
    }

    /**
     * What is lost when JFR cannot run, for the one warning that says so; null when this part does
     * not use JFR. A part that returns a text here makes mech open its JFR stream.
     */
    default String withoutJfr() {
        return null;
    }

    /**
     * Starts the part.
     *
     * @param context what mech offers a starting part
     * @return the part, or null when it could not start (it warned why)
     * @throws Exception when starting failed: one internal error, and the other parts carry on
     */
    Part start(PartContext context) throws Exception;
}
