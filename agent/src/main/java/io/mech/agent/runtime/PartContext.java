package io.mech.agent.runtime;

import io.mech.agent.options.Options;
import io.mech.probes.profiler.TriggerSource;
import java.lang.instrument.Instrumentation;
import java.util.List;
import java.util.function.Supplier;
import jdk.jfr.consumer.RecordingStream;

/**
 * What mech offers a part as it starts ({@link PartSpec#start}): the options, the JVM's
 * instrumentation, mech's JFR stream, and what the parts started before it offer. Made on the
 * thread that starts the part and read on it only; {@link Offers} states its own contract.
 *
 * @param options         the options mech runs with
 * @param instrumentation the JVM's instrumentation; null where the agent has none
 * @param beforeMain      true when the part starts on the host's thread in premain, before main
 * @param jfr             mech's JFR stream, not started yet, for {@link PartSpec.Stage#WITH_JFR}
 *                        and later parts; null before then, and when JFR cannot run
 * @param offers          what parts offer the parts after them; a part sets its own slots as it starts
 * @param triggers        what the running parts offer the profiler, asked for when called
 */
public record PartContext(Options options, Instrumentation instrumentation, boolean beforeMain, RecordingStream jfr,
                   Offers offers, Supplier<List<TriggerSource>> triggers) {
}
