package io.mech.agent.options;

/** When a part reads JFR: a part's option of this type is what {@code PartSpec} asks to know whether JFR opens at once. */
public enum JfrWhen {
    /** From the host's first second. */
    ON,
    /** From the first thing the part sees that JFR would explain. */
    DEMAND,
    /** Never. */
    OFF
}
