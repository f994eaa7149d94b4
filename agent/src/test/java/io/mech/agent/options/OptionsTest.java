package io.mech.agent.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.agent.Parts;
import io.mech.agent.hiccup.HiccupPart;
import io.mech.agent.queues.QueuePart;
import io.mech.agent.runtime.PartSpec;
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
        assertTrue(options.flag(Option.ENABLED));
        assertTrue(options.flag(HiccupPart.Spec.ON));
        assertEquals(5_000_000_000L, options.nanos(HiccupPart.Spec.INTERVAL));
        assertEquals(1_000_000L, options.nanos(HiccupPart.Spec.RESOLUTION));
        assertEquals("hiccup.%date.%pid.hlog", options.text(HiccupPart.Spec.LOG));
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void agentArgumentBeatsPropertyBeatsEnvironment() {
        final Map<String, String> env = Map.of("MECH_HICCUP_INTERVAL", "3s", "MECH_HICCUP_RESOLUTION", "2ms",
            "MECH_HICCUP_DELAY", "7s");
        final Properties props = properties("mech.hiccup.interval", "2s", "mech.hiccup.resolution", "500us");
        final Options options = parse("hiccup.interval=1s", props, env);
        assertEquals(1_000_000_000L, options.nanos(HiccupPart.Spec.INTERVAL));
        assertEquals(500_000L, options.nanos(HiccupPart.Spec.RESOLUTION));
        assertEquals(7_000_000_000L, options.nanos(HiccupPart.Spec.DELAY));
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void unknownKeyIsNamedOnceAndTheRestStillApplies() {
        final Options options = parse("hiccup.intervall=1s,hiccup.interval=2s", new Properties(), Map.of());
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("'hiccup.intervall'"), warnings.get(0));
        assertEquals(2_000_000_000L, options.nanos(HiccupPart.Spec.INTERVAL));
    }

    @Test
    void badValueNamesKeyAndExpectationAndFallsBack() {
        final Options options = parse("hiccup.interval=soon,enabled=maybe", properties("mech.hiccup.interval", "3s"), Map.of());
        assertEquals(2, warnings.size());
        assertTrue(warnings.get(0).contains("'hiccup.interval'") && warnings.get(0).contains("duration")
            && warnings.get(0).contains("'soon'"), warnings.get(0));
        assertTrue(warnings.get(1).contains("'enabled'") && warnings.get(1).contains("true or false"), warnings.get(1));
        assertEquals(3_000_000_000L, options.nanos(HiccupPart.Spec.INTERVAL));
        assertTrue(options.flag(Option.ENABLED));
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
        assertFalse(parse("hiccup=off", new Properties(), Map.of()).flag(HiccupPart.Spec.ON));
        assertFalse(parse("enabled=false", new Properties(), Map.of()).flag(Option.ENABLED));
        assertTrue(parse("hiccup.control=yes", new Properties(), Map.of()).flag(HiccupPart.Spec.CONTROL));
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void everyOptionHasAnEnvironmentNameThatMapsBack() {
        for (final Option option : Parts.options()) {
            final Options options = parse(null, new Properties(), Map.of(option.environmentName(), option.defaultValue));
            assertEquals(option.defaultValue.trim(), options.text(option));
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
        assertEquals(0, options.nanos(Option.REPORT_INTERVAL));
        assertEquals(1_000_000_000L, options.nanos(QueuePart.Spec.SAMPLE));
    }

    @Test
    void zeroStillSwitchesPeriodicReportsOffAndTheFloorItselfIsTaken() {
        assertEquals(0, parse("report.interval=0", new Properties(), Map.of()).nanos(Option.REPORT_INTERVAL));
        assertEquals(1_000_000_000L, parse("report.interval=1s", new Properties(), Map.of()).nanos(Option.REPORT_INTERVAL));
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void aKeyGivenTwiceWarnsAndTheLastWins() {
        final Options options = parse("hiccup.interval=1s,report=off,hiccup.interval=2s", new Properties(), Map.of());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("'hiccup.interval' is given twice") && warnings.get(0).contains("'1s', then '2s'"),
            warnings.get(0));
        assertEquals(2_000_000_000L, options.nanos(HiccupPart.Spec.INTERVAL));
    }

    @Test
    void everyKeyIsDeclaredOnceAcrossTheCoreAndTheParts() {
        final java.util.Set<String> keys = new java.util.HashSet<>();
        for (final Option option : Parts.options()) {
            assertTrue(keys.add(option.key), option.key + " is declared twice");
        }
        for (final PartSpec part : Parts.ALL) {
            assertTrue(part.options().stream().allMatch(option -> option.key.startsWith(part.options().get(0).key)),
                part.name() + ": a part's options share its switch's key as their prefix");
        }
    }
}
