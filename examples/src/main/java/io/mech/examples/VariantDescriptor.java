package io.mech.examples;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One variant of a kernel and its ground truth: the findings mech must report while it runs,
 * where each finding must point, and the JVM options under which that truth holds.
 *
 * <p>Assumptions and guarantees: instances are immutable and safe to share. Every finding not in
 * {@link #findings()} must stay silent. Every {@link Site} belongs to a finding in
 * {@link #findings()}. {@link #jvmArgs()} are needed for the ground truth to hold, not for speed:
 * run the variant without them and the declaration may be wrong.
 */
public final class VariantDescriptor {

    private final String name;
    private final String summary;
    private final Set<Finding> findings;
    private final List<Site> sites;
    private final List<String> jvmArgs;
    private final String twin;

    private VariantDescriptor(final Builder builder) {
        this.name = builder.name;
        this.summary = builder.summary;
        final EnumSet<Finding> copy = EnumSet.noneOf(Finding.class);
        copy.addAll(builder.findings);
        this.findings = Collections.unmodifiableSet(copy);
        this.sites = List.copyOf(builder.sites);
        this.jvmArgs = List.copyOf(builder.jvmArgs);
        this.twin = builder.twin;
    }

    /** @return the name used on the command line, e.g. {@code same-object} */
    public String name() {
        return name;
    }

    /** @return one line on what this variant shows */
    public String summary() {
        return summary;
    }

    /** @return the findings mech must report for this variant; all others must stay silent */
    public Set<Finding> findings() {
        return findings;
    }

    /** @return every site mech must point at, across all findings */
    public List<Site> sites() {
        return sites;
    }

    /**
     * @param finding a finding
     * @return the sites mech must point at for that finding, empty if it must stay silent
     */
    public List<Site> sites(final Finding finding) {
        final List<Site> matching = new ArrayList<>();
        for (final Site site : sites) {
            if (site.finding() == finding) {
                matching.add(site);
            }
        }
        return List.copyOf(matching);
    }

    /** @return JVM options under which the ground truth holds, e.g. {@code -XX:-RestrictContended} */
    public List<String> jvmArgs() {
        return jvmArgs;
    }

    /** @return the name of the fixed variant this defective one is compared with, if any */
    public Optional<String> twin() {
        return Optional.ofNullable(twin);
    }

    @Override
    public String toString() {
        return name + findings;
    }

    /**
     * Starts a declaration.
     *
     * @param name    the command-line name
     * @param summary one line on what the variant shows
     * @return a builder
     */
    public static Builder builder(final String name, final String summary) {
        return new Builder(name, summary);
    }

    /** Collects one variant's declaration; not thread safe. */
    public static final class Builder {
        private final String name;
        private final String summary;
        private final EnumSet<Finding> findings = EnumSet.noneOf(Finding.class);
        private final List<Site> sites = new ArrayList<>();
        private final List<String> jvmArgs = new ArrayList<>();
        private String twin;

        private Builder(final String name, final String summary) {
            this.name = Objects.requireNonNull(name, "name");
            this.summary = Objects.requireNonNull(summary, "summary");
            if (!name.matches("[a-z0-9]+(-[a-z0-9]+)*")) {
                throw new IllegalArgumentException("name must be lower-case words joined by '-': " + name);
            }
        }

        /**
         * Declares a finding mech must report, with no particular site.
         *
         * @param finding the finding
         * @return this
         */
        public Builder flags(final Finding finding) {
            findings.add(Objects.requireNonNull(finding, "finding"));
            return this;
        }

        /**
         * Declares a finding mech must report and where it must point.
         *
         * @param finding the finding
         * @param type    the class to point at
         * @param fields  the fields to point at, none for a class-level site
         * @return this
         */
        public Builder flags(final Finding finding, final Class<?> type, final String... fields) {
            return flags(finding, type.getName(), fields);
        }

        /**
         * As {@link #flags(Finding, Class, String...)} for a class this code cannot name directly.
         *
         * @param finding   the finding
         * @param className the binary name of the class to point at
         * @param fields    the fields to point at, none for a class-level site
         * @return this
         */
        public Builder flags(final Finding finding, final String className, final String... fields) {
            flags(finding);
            sites.add(new Site(finding, className, List.of(fields)));
            return this;
        }

        /**
         * @param args JVM options the ground truth depends on
         * @return this
         */
        public Builder jvmArgs(final String... args) {
            jvmArgs.addAll(List.of(args));
            return this;
        }

        /**
         * @param fixedVariant the fixed variant to compare this defective one with
         * @return this
         */
        public Builder twin(final String fixedVariant) {
            this.twin = Objects.requireNonNull(fixedVariant, "fixedVariant");
            return this;
        }

        /** @return the immutable descriptor */
        public VariantDescriptor build() {
            return new VariantDescriptor(this);
        }
    }
}
