package io.mech.report;

import java.util.List;

/**
 * What mech has to say about a JVM at one moment.
 *
 * @param pid          the host's pid
 * @param runMillis    how long mech has run in the host
 * @param hiccups      one summary per JVM measured (host first, then the control JVM); empty when the recorder is off
 * @param causes       the host's stall time by cause; empty when causes are not attributed
 * @param unmetered    what stopped the host before its meter began; {@link Unmetered#NONE} when not known
 * @param sections     one per probe switched on, in start order
 * @param notes        lines for a person, such as why a section is missing
 */
public record Report(long pid, long runMillis, List<HiccupSummary> hiccups, List<CauseSummary> causes,
                     Unmetered unmetered, List<Section> sections, List<String> notes) {

    /** Copies the lists, so a report never changes after it is made. */
    public Report {
        hiccups = List.copyOf(hiccups);
        causes = List.copyOf(causes);
        sections = List.copyOf(sections);
        notes = List.copyOf(notes);
    }
}
