package io.mech.probes.falsesharing;

/**
 * Two non-final fields of one object (or two statics of one class) close enough to share a line
 * in some placement, read from the layout alone: nothing says yet that threads touch them.
 *
 * @param className    the class
 * @param first        the lower field's name
 * @param firstOffset  its offset
 * @param second       the higher field's name
 * @param secondOffset its offset
 * @param probability  how likely one line holds both (or, when adjacent, neighbouring lines hold
 *                     them), over the object starts the alignment allows
 * @param adjacent     whether 64 to 127 bytes apart: lower severity
 */
public record LayoutCandidate(String className, String first, long firstOffset, String second, long secondOffset,
                              double probability, boolean adjacent) {
}
