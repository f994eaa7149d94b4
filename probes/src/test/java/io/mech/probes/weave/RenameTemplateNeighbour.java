package io.mech.probes.weave;

/** A class whose name begins with {@link RenameTemplate}'s: not renamed with it. */
public final class RenameTemplateNeighbour {

    /** Read by the renamed template, so that the renamed class must still find this one. */
    public static final String NAME = new String("neighbour");

    private RenameTemplateNeighbour() {
    }
}
