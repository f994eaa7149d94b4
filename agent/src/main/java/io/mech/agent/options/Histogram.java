package io.mech.agent.options;

/** The kind of Prometheus histogram mech serves its distributions as ({@link Option#PROMETHEUS_HISTOGRAM}). */
public enum Histogram {
    /** Exponential buckets, which merge across JVMs; needs a Prometheus with native histograms. */
    NATIVE,
    /** Fixed buckets, for a Prometheus without native histograms. */
    CLASSIC
}
