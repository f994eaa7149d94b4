package io.mech.probes.weave;

/** Renamed by {@link ClassRenameTest}: refers to itself as a class literal, a field, an array and in descriptors. */
public final class RenameTemplate {

    private static RenameTemplate last;
    private final RenameTemplate[] next;

    private RenameTemplate(final RenameTemplate[] next) {
        this.next = next;
    }

    /** @return the name this class has where it is defined */
    public static String selfName() {
        return RenameTemplate.class.getName();
    }

    /** @return the length of a chain of instances built and walked through the renamed types */
    public static int chain(final int length) {
        RenameTemplate head = null;
        for (int i = 0; i < length; i++) {
            head = new RenameTemplate(head == null ? new RenameTemplate[0] : new RenameTemplate[] {head});
        }
        last = head;
        int walked = 0;
        for (RenameTemplate t = last; t != null; t = t.next.length == 0 ? null : t.next[0]) {
            walked++;
        }
        return walked;
    }

    /** @return a class whose name begins with this one's, which the rename must leave alone */
    public static String neighbour() {
        return RenameTemplateNeighbour.NAME;
    }
}
