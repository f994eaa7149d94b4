package io.mech.probes.falsesharing;

import java.util.List;

/**
 * One finding of a window: a line that moves between cores, what is on it and what to do.
 *
 * @param kind        false sharing, true sharing, cross-object or adjacent-line
 * @param className   the class the fields belong to (two names joined by " / " when two classes
 *                    share the line)
 * @param fields      the fields, by name, in offset order
 * @param offsets     each field's offset in its object (in the Class mirror for a static)
 * @param threads     the threads involved, by name, busiest first
 * @param rates       accesses per second of the two sides the score compares
 * @param probability how likely the fields share a line: from the layout for one object, from
 *                    the sampled addresses across objects
 * @param score       the lower of the two access rates times the probability, per second; for an
 *                    adjacent-line note also times what a neighbouring line was measured to cost
 *                    next to a shared one ({@code SharingAnalysis.ADJACENT_WEIGHT}, 1/64)
 * @param fix         what removes the line's movement
 */
public record Verdict(Kind kind, String className, List<String> fields, List<Long> offsets, List<String> threads,
                      List<Double> rates, double probability, double score, String fix) {

    /** What kind of sharing. */
    public enum Kind {
        /** Different fields of one object on one line, written (or written and read) by different threads. */
        FALSE_SHARING("false sharing"),
        /** One field written by several threads: the contended counter. */
        TRUE_SHARING("true sharing"),
        /** Objects of one class, each written by its own thread, placed on one line. */
        CROSS_OBJECT("cross-object"),
        /**
         * A note, not a defect: as false sharing, on the two lines of one 128-byte pair, which the
         * adjacent-line prefetcher pulls together; scored far below one shared line.
         */
        ADJACENT_LINE("adjacent-line");

        private final String label;

        Kind(final String label) {
            this.label = label;
        }

        /** @return the kind as reports and labels spell it, e.g. {@code false sharing} */
        public String label() {
            return label;
        }
    }

    /** Copies the lists. */
    public Verdict {
        fields = List.copyOf(fields);
        offsets = List.copyOf(offsets);
        threads = List.copyOf(threads);
        rates = List.copyOf(rates);
    }
}
