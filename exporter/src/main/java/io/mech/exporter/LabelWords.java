package io.mech.exporter;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * mech's own label values as Prometheus users write them: lower-case words joined by
 * underscores ({@code "Monitor Enter"} becomes {@code monitor_enter}, {@code "false sharing"}
 * {@code false_sharing}), so a selector needs no quoting of spaces. The JVM families keep the
 * names the JVM gives its pools and collectors, as every Java exporter serves them.
 */
final class LabelWords {

    /**
     * Each text's word, so that a scrape finds it instead of building it. The texts are few and
     * fixed (verdicts, inflation causes, mech's components), so the map stays small; scrapes read
     * it from any thread, which a concurrent map allows.
     */
    private static final ConcurrentMap<String, String> WORDS = new ConcurrentHashMap<>();

    private LabelWords() {
    }

    /** @return the text in lower case, each run of characters other than letters and digits one underscore, none at the ends */
    static String of(final String text) {
        return WORDS.computeIfAbsent(text, LabelWords::word);
    }

    private static String word(final String text) {
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
