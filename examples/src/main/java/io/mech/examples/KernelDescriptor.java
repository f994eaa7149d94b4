package io.mech.examples;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A kernel: one mechanical-sympathy effect, shown by a ladder of variants.
 *
 * @param name     the command-line name, e.g. {@code false-sharing}
 * @param summary  one line on what the kernel shows
 * @param variants the variants in ladder order, immutable, names unique
 */
public record KernelDescriptor(String name, String summary, List<VariantDescriptor> variants) {

    /** Validates and copies. */
    public KernelDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(summary, "summary");
        variants = List.copyOf(variants);
        if (variants.isEmpty()) {
            throw new IllegalArgumentException("kernel " + name + " has no variants");
        }
        final Set<String> names = new HashSet<>();
        for (final VariantDescriptor variant : variants) {
            if (!names.add(variant.name())) {
                throw new IllegalArgumentException("kernel " + name + " repeats variant " + variant.name());
            }
        }
        for (final VariantDescriptor variant : variants) {
            final String twin = variant.twin().orElse(null);
            if (twin != null && !names.contains(twin)) {
                throw new IllegalArgumentException(variant.name() + " names a missing twin " + twin);
            }
        }
    }

    /**
     * @param variantName a variant name
     * @return that variant, if this kernel has it
     */
    public Optional<VariantDescriptor> variant(final String variantName) {
        return variants.stream().filter(v -> v.name().equals(variantName)).findFirst();
    }
}
