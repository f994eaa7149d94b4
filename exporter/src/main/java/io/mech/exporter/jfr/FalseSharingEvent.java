package io.mech.exporter.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** One verdict of the false-sharing probe, committed when its window ends. */
@Name("mech.FalseSharing")
@Label("False Sharing")
@Category("mech")
@Description("A cache line written by one thread while another used it: false sharing, true sharing or cross-object")
@StackTrace(false)
public final class FalseSharingEvent extends jdk.jfr.Event {

    /** false sharing, true sharing, cross-object or adjacent-line. */
    @Label("Verdict")
    public String verdict;

    /** The class of the fields. */
    @Label("Class")
    public String className;

    /** The fields, comma-separated, in offset order. */
    @Label("Fields")
    public String fields;

    /** Each field's offset in bytes, comma-separated. */
    @Label("Offsets")
    public String offsets;

    /** The threads involved, comma-separated. */
    @Label("Threads")
    public String threads;

    /** The higher of the two access rates compared, per second. */
    @Label("Rate A")
    public double rateA;

    /** The lower of the two access rates compared, per second. */
    @Label("Rate B")
    public double rateB;

    /** How likely the fields share a line. */
    @Label("Probability")
    public double probability;

    /** The lower rate times the probability, per second. */
    @Label("Score")
    public double score;

    /** What removes the sharing. */
    @Label("Fix")
    public String fix;
}
