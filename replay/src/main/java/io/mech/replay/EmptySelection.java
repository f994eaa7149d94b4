package io.mech.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one line that tells a user why a tag or a window selected nothing, set against what the
 * logs hold: a report of zeros would read as a healthy JVM.
 */
final class EmptySelection {

    private EmptySelection() {
    }

    static String describe(final ReplayOptions options, final Replay.Seen seen) {
        final List<String> asked = new ArrayList<>();
        if (options.tag != null) {
            asked.add("--tag " + options.tag);
        }
        if (options.start.seconds() > 0 || options.start.absolute()) {
            asked.add("--start " + bound(options.start));
        }
        if (options.end.seconds() < Double.MAX_VALUE) {
            asked.add("--end " + bound(options.end));
        }
        final List<String> held = new ArrayList<>();
        if (seen.untagged() > 0) {
            held.add("untagged lines");
        }
        if (!seen.tagged().isEmpty()) {
            held.add("tags " + String.join(", ", seen.tagged().keySet()));
        }
        return String.format(Locale.ROOT, "no interval selected%s: the logs hold %s, starting from %.3f to %.3f s after the first "
                + "log's start", asked.isEmpty() ? "" : " by " + String.join(" ", asked), String.join(" and ", held),
            seen.firstSec(), seen.lastSec());
    }

    private static String bound(final ReplayOptions.TimeBound bound) {
        return bound.absolute() ? String.format(Locale.ROOT, "%.3f (epoch s)", bound.seconds())
            : String.format(Locale.ROOT, "%s s", bound.seconds());
    }
}
