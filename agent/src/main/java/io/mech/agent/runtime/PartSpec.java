package io.mech.agent.runtime;

import io.mech.agent.options.JfrWhen;
import io.mech.agent.options.Option;
import io.mech.agent.options.Options;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A kind of part mech can run: its name, the options it brings (its switch first), when it
 * starts and how. Each part declares one in a small class of its own beside it, so that listing it
 * in the list of parts loads none of the part's code; {@link Mech} starts those whose switch is on,
 * each at its {@link Stage}, in that order. Immutable.
 *
 * @param name       a short, stable name: the component of the part's internal errors
 * @param options    the options the part reads, its switch first; they join the core's in the options table
 * @param needs      the switches of the parts it works on, which must be on too (the causes need the recorder);
 *                   another part's, so they are not in the options table twice
 * @param stage      when the part starts
 * @param beforeMain whether, under -javaagent, the part starts on the host's thread before main
 *                   runs: for a part that must weave classes as they load; {@link Stage#EARLY} only
 * @param withoutJfr what is lost when JFR cannot run, for the one warning that says so; null when
 *                   the part does not read JFR. A part that has a text here makes mech open its JFR stream.
 * @param starter    starts the part
 */
public record PartSpec(String name, List<Option<?>> options, List<Option<Boolean>> needs, Stage stage, boolean beforeMain, String withoutJfr,
                Starter starter) {

    /** When a part starts, relative to the rest of mech. */
    public enum Stage {
        /**
         * With the recorder, before /metrics: parts that need neither JFR nor the others; under
         * -javaagent, those with {@code beforeMain} earlier still, on the host's thread in premain.
         */
        EARLY,
        /**
         * After the host's first second (under -javaagent), with mech's one JFR stream not yet
         * started: a part subscribes to the events it needs as it starts.
         */
        WITH_JFR,
        /** After every other part: a part that consumes what the others offer, such as their triggers. */
        LAST
    }

    /**
     * Starts a part. mech's own specs are their own starters rather than lambdas: every spec is
     * made in premain, on the host's start path, where linking a lambda's call site costs about
     * half a millisecond.
     */
    @FunctionalInterface
    public interface Starter {
        /**
         * @param context what mech offers a starting part
         * @return the part, or null when it could not start (it warned why)
         * @throws Exception when starting failed: one internal error, and the other parts carry on
         */
        Part start(PartContext context) throws Exception;

        /**
         * What the part does under -javaagent on the host's thread before main, when it is
         * wanted and starts after main: only what must run from the host's first line and costs
         * its start-up little (the hiccup recorder's meter, on memory it takes here, so that it
         * measures through a heap the host fills from its first line). What it makes it offers
         * through {@link PartContext#offers()} for {@link #start} to find. Nothing by default.
         *
         * @param context what mech offers, as before main
         * @throws Exception when it failed: one internal error, and the part starts after main as usual
         */
        default void beforeMain(final PartContext context) throws Exception {
        }
    }

    /** A part that needs no other part. */
    public PartSpec(final String name, final List<Option<?>> options, final Stage stage, final boolean beforeMain, final String withoutJfr,
             final Starter starter) {
        this(name, options, List.of(), stage, beforeMain, withoutJfr, starter);
    }

    /** Validates and copies. */
    public PartSpec {
        Objects.requireNonNull(name, "name");
        options = List.copyOf(options);
        needs = List.copyOf(needs);
        if (options.isEmpty() || !(options.get(0).defaultParsed() instanceof Boolean)) {
            throw new IllegalArgumentException(name + ": a part's first option is its switch");
        }
        if (beforeMain && stage != Stage.EARLY) {
            throw new IllegalArgumentException(name + ": only an early part may start before main");
        }
        Objects.requireNonNull(starter, "starter");
    }

    /** Whether the options switch this part on: its first option, its switch, and the switches it needs. */
    boolean wanted(final Options given) {
        if (!Boolean.TRUE.equals(given.get(options.get(0)))) {
            return false;
        }
        for (final Option<Boolean> needed : needs) {
            if (!given.get(needed)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether, switched on, the part reads JFR from the host's first second: it reads JFR, and
     * its own option of when (one of type {@link JfrWhen}), if it has one, says on rather than on
     * demand or off.
     */
    boolean readsJfrAtOnce(final Options given) {
        if (withoutJfr == null || !wanted(given)) {
            return false;
        }
        for (final Option<?> option : options) {
            if (given.get(option) instanceof JfrWhen when && when != JfrWhen.ON) {
                return false;
            }
        }
        return true;
    }

    /**
     * Every option mech reads with these parts: the core's, then each part's, in the parts' order.
     *
     * @param parts the parts mech composes
     * @return the options, in the order the options table lists them
     */
    public static List<Option<?>> allOptions(final List<PartSpec> parts) {
        final List<Option<?>> all = new ArrayList<>(Option.CORE);
        for (final PartSpec part : parts) {
            all.addAll(part.options());
        }
        return List.copyOf(all);
    }

    /** Starts the part; see {@link Starter#start}. */
    Part start(final PartContext context) throws Exception {
        return starter.start(context);
    }

    /**
     * Identity: each part has one spec, and its starter, a lambda, has no equality of its own. Also
     * cheap where it runs, keyed in a map on the host's thread before main: a record's own
     * {@code hashCode} is bootstrapped through {@code java.lang.runtime.ObjectMethods}, 38 ms of
     * CPU the first time on JDK 17.
     */
    @Override
    public boolean equals(final Object other) {
        return this == other;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
