package io.mech.exporter;

/**
 * mech's own label values as Prometheus users write them: lower-case words joined by
 * underscores ({@code "Monitor Enter"} becomes {@code monitor_enter}, {@code "false sharing"}
 * {@code false_sharing}), so a selector needs no quoting of spaces. The JVM families keep the
 * names the JVM gives its pools and collectors, as every Java exporter serves them.
 */
final class LabelWords {

    private LabelWords() {
    }

    /** @return the text in lower case, each run of characters other than letters and digits one underscore, none at the ends */
    static String of(final String text) {
        final StringBuilder word = new StringBuilder(text.length());
        boolean gap = false;
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            if (Character.isLetterOrDigit(c)) {
                if (gap && word.length() > 0) {
                    word.append('_');
                }
                word.append(Character.toLowerCase(c));
                gap = false;
            } else {
                gap = true;
            }
        }
        return word.toString();
    }
}
