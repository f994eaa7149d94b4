package io.mech.agent.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.agent.Parts;
import io.mech.agent.hiccup.HiccupPart;
import io.mech.agent.locks.LockPart;
import io.mech.agent.profiler.ProfilerMode;
import io.mech.agent.profiler.ProfilerPart;
import io.mech.agent.queues.QueuePart;
import io.mech.agent.runtime.PartSpec;
import io.mech.probes.profiler.ProfileEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class OptionsTest {

    private final List<String> warnings = new ArrayList<>();

    private Options parse(final String args, final Properties properties, final Map<String, String> env) {
        return Options.parse(Parts.options(), args, properties, env, warnings::add);
    }

    private static Properties properties(final String... pairs) {
        final Properties p = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            p.setProperty(pairs[i], pairs[i + 1]);
        }
        return p;
    }

    @Test
    void defaultsWhenNothingIsGiven() {
        final Options options = parse(null, new Properties(), Map.of());
        assertTrue(options.get(Option.ENABLED));
        assertTrue(options.get(HiccupPart.Spec.ON));
        assertEquals(5_000_000_000L, options.get(HiccupPart.Spec.INTERVAL));
        assertEquals(1_000_000L, options.get(HiccupPart.Spec.RESOLUTION));
        assertEquals("hiccup.%date.%pid.hlog", options.get(HiccupPart.Spec.LOG));
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void agentArgumentBeatsPropertyBeatsEnvironment() {
        final Map<String, String> env = Map.of("MECH_HICCUP_INTERVAL", "3s", "MECH_HICCUP_RESOLUTION", "2ms",
            "MECH_HICCUP_DELAY", "7s");
        final Properties props = properties("mech.hiccup.interval", "2s", "mech.hiccup.resolution", "500us");
        final Options options = parse("hiccup.interval=1s", props, env);
        assertEquals(1_000_000_000L, options.get(HiccupPart.Spec.INTERVAL));
        assertEquals(500_000L, options.get(HiccupPart.Spec.RESOLUTION));
        assertEquals(7_000_000_000L, options.get(HiccupPart.Spec.DELAY));
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void unknownKeyIsNamedOnceAndTheRestStillApplies() {
        final Options options = parse("hiccup.intervall=1s,hiccup.interval=2s", new Properties(), Map.of());
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("'hiccup.intervall'"), warnings.get(0));
        assertEquals(2_000_000_000L, options.get(HiccupPart.Spec.INTERVAL));
    }

    @Test
    void badValueNamesKeyAndExpectationAndFallsBack() {
        final Options options = parse("hiccup.interval=soon,enabled=maybe", properties("mech.hiccup.interval", "3s"), Map.of());
        assertEquals(2, warnings.size());
        assertTrue(warnings.get(0).contains("'hiccup.interval'") && warnings.get(0).contains("duration")
            && warnings.get(0).contains("'soon'"), warnings.get(0));
        assertTrue(warnings.get(1).contains("'enabled'") && warnings.get(1).contains("true or false"), warnings.get(1));
        assertEquals(3_000_000_000L, options.get(HiccupPart.Spec.INTERVAL));
        assertTrue(options.get(Option.ENABLED));
    }

    @Test
    void pairWithoutEqualsIsReported() {
        parse("hiccup", new Properties(), Map.of());
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("key=value"), warnings.get(0));
    }

    @Test
    void unknownPropertyAndEnvironmentVariableAreReported() {
        parse(null, properties("mech.colour", "red", "other.key", "x"), Map.of("MECH_SHADE", "1", "PATH", "/bin"));
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.stream().anyMatch(w -> w.contains("'colour'") && w.contains("-Dmech.colour")));
        assertTrue(warnings.stream().anyMatch(w -> w.contains("MECH_SHADE")));
    }

    @Test
    void switchesReadOnOffAndTrueFalse() {
        assertFalse(parse("hiccup=off", new Properties(), Map.of()).get(HiccupPart.Spec.ON));
        assertFalse(parse("enabled=false", new Properties(), Map.of()).get(Option.ENABLED));
        assertTrue(parse("hiccup.control=yes", new Properties(), Map.of()).get(HiccupPart.Spec.CONTROL));
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void everyOptionHasAnEnvironmentNameThatMapsBack() {
        for (final Option<?> option : Parts.options()) {
            final Options options = parse(null, new Properties(), Map.of(option.environmentName(), option.defaultValue));
            assertEquals(option.defaultParsed(), options.get(option));
        }
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void periodsBelowTheirFloorWarnOnceAndKeepTheDefault() {
        final Options options = parse("report.interval=1ms,probes.queues.sample=1ms,profiler.cooldown=10ms,profiler.seconds=1h",
            new Properties(), Map.of());
        assertEquals(4, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("'report.interval'") && warnings.get(0).contains("at least 1s"), warnings.get(0));
        assertTrue(warnings.get(1).contains("'probes.queues.sample'") && warnings.get(1).contains("from 50ms to 60s"), warnings.get(1));
        assertTrue(warnings.get(2).contains("'profiler.cooldown'"), warnings.get(2));
        assertTrue(warnings.get(3).contains("'profiler.seconds'") && warnings.get(3).contains("to 10m"), warnings.get(3));
        assertEquals(0, options.get(Option.REPORT_INTERVAL));
        assertEquals(1_000_000_000L, options.get(QueuePart.Spec.SAMPLE));
    }

    @Test
    void zeroStillSwitchesPeriodicReportsOffAndTheFloorItselfIsTaken() {
        assertEquals(0, parse("report.interval=0", new Properties(), Map.of()).get(Option.REPORT_INTERVAL));
        assertEquals(1_000_000_000L, parse("report.interval=1s", new Properties(), Map.of()).get(Option.REPORT_INTERVAL));
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void aKeyGivenTwiceWarnsAndTheLastWins() {
        final Options options = parse("hiccup.interval=1s,report=off,hiccup.interval=2s", new Properties(), Map.of());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("'hiccup.interval' is given twice") && warnings.get(0).contains("'1s', then '2s'"),
            warnings.get(0));
        assertEquals(2_000_000_000L, options.get(HiccupPart.Spec.INTERVAL));
    }

    @Test
    void everyKeyIsDeclaredOnceAcrossTheCoreAndTheParts() {
        final java.util.Set<String> keys = new java.util.HashSet<>();
        for (final Option<?> option : Parts.options()) {
            assertTrue(keys.add(option.key), option.key + " is declared twice");
        }
        for (final PartSpec part : Parts.ALL) {
            assertTrue(part.options().stream().allMatch(option -> option.key.startsWith(part.options().get(0).key)),
                part.name() + ": a part's options share its switch's key as their prefix");
        }
    }

    /** Each value is read once into its option's type, so no part compares an option's text. */
    @Test
    void valuesAreParsedOnceIntoTheirTypes() {
        final Options options = parse("profiler.mode=continuous,report=off,prometheus.histogram=classic,probes.locks.jfr=on,"
            + "profiler.event=cpu,probes.queues.alert=50%,prometheus.port=8080", new Properties(), Map.of());
        assertEquals(ProfilerMode.CONTINUOUS, options.get(ProfilerPart.Spec.MODE));
        assertEquals(Destination.To.OFF, options.get(Option.REPORT).to());
        assertEquals(Histogram.CLASSIC, options.get(Option.PROMETHEUS_HISTOGRAM));
        assertEquals(JfrWhen.ON, options.get(LockPart.Spec.JFR));
        assertEquals(ProfileEvent.CPU, options.get(ProfilerPart.Spec.EVENT));
        assertEquals(0.5, options.get(QueuePart.Spec.ALERT));
        assertEquals(8080, options.get(Option.PROMETHEUS_PORT));
        assertEquals(new Destination(Destination.To.FILE, "/tmp/mech report.txt"),
            parse("report= /tmp/mech report.txt ", new Properties(), Map.of()).get(Option.REPORT));
        assertEquals(Destination.To.STDERR, Options.defaults().get(Option.REPORT).to());
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    /** A value that is none of a choice's is refused with the choices named, and the default stays. */
    @Test
    void aChoiceRefusesWhatItDoesNotOfferAndNamesWhatItDoes() {
        final Options options = parse("probes.locks.jfr=sometimes", new Properties(), Map.of());
        assertEquals(JfrWhen.DEMAND, options.get(LockPart.Spec.JFR));
        assertEquals(List.of("option 'probes.locks.jfr' (agent argument probes.locks.jfr): expected on, demand or off, got 'sometimes'; "
            + "ignored"), warnings);
    }
}
