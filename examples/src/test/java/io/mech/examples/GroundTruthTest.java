package io.mech.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The declarations integration tests rely on: names resolve, sites point at real fields, nothing mutates. */
class GroundTruthTest {

    @Test
    void everySiteNamesALoadableClassAndItsDeclaredFields() throws ClassNotFoundException {
        int sites = 0;
        for (final KernelDescriptor kernel : Kernels.all()) {
            for (final VariantDescriptor variant : kernel.variants()) {
                for (final Site site : variant.sites()) {
                    assertTrue(variant.findings().contains(site.finding()), variant + " " + site);
                    final Class<?> type = Class.forName(site.className(), false, getClass().getClassLoader());
                    for (final String field : site.fields()) {
                        assertTrue(hasField(type, field), site.className() + " has no field " + field);
                    }
                    sites++;
                }
            }
        }
        assertTrue(sites > 10, "sites declared: " + sites);
    }

    @Test
    void sharingFindingsNameFieldsAndQueueOrLockFindingsNameAClass() {
        for (final KernelDescriptor kernel : Kernels.all()) {
            for (final VariantDescriptor variant : kernel.variants()) {
                for (final Finding finding : variant.findings()) {
                    final List<Site> sites = variant.sites(finding);
                    if (finding == Finding.GC_HICCUP || finding == Finding.CARRIER_WAIT) {
                        assertTrue(sites.isEmpty(), variant.toString());
                    } else {
                        assertFalse(sites.isEmpty(), variant + " declares " + finding + " without a site");
                    }
                    if (finding == Finding.FALSE_SHARING) {
                        assertTrue(sites.stream().allMatch(s -> !s.fields().isEmpty()), variant.toString());
                    }
                }
            }
        }
    }

    @Test
    void everyFindingIsDeclaredSomewhereAndEveryKernelHasASilentOrFixedVariant() {
        final Set<Finding> declared = new HashSet<>();
        for (final KernelDescriptor kernel : Kernels.all()) {
            kernel.variants().forEach(v -> declared.addAll(v.findings()));
        }
        assertEquals(Set.of(Finding.values()), declared);
    }

    @Test
    void falseSharingDefectsHaveASilentPaddedTwin() {
        final KernelDescriptor kernel = Kernels.named("false-sharing").orElseThrow();
        int defects = 0;
        for (final VariantDescriptor variant : kernel.variants()) {
            if (variant.findings().contains(Finding.FALSE_SHARING)) {
                final VariantDescriptor twin = kernel.variant(variant.twin().orElseThrow()).orElseThrow();
                assertTrue(twin.findings().isEmpty(), twin.toString());
                defects++;
            }
        }
        assertEquals(3, defects);
    }

    @Test
    void descriptorsAreImmutable() {
        final VariantDescriptor variant = Kernels.named("false-sharing").orElseThrow().variants().get(0);
        assertThrows(UnsupportedOperationException.class, () -> variant.findings().add(Finding.GC_HICCUP));
        assertThrows(UnsupportedOperationException.class, () -> variant.sites().clear());
        assertThrows(UnsupportedOperationException.class, () -> variant.sites().get(0).fields().clear());
        assertThrows(UnsupportedOperationException.class, () -> variant.jvmArgs().clear());
        assertThrows(UnsupportedOperationException.class, () -> Kernels.all().clear());
    }

    @Test
    void builderRejectsBadNamesAndMissingTwins() {
        assertThrows(IllegalArgumentException.class, () -> VariantDescriptor.builder("Bad Name", "x"));
        final VariantDescriptor orphan = VariantDescriptor.builder("a", "x").twin("missing").build();
        assertThrows(IllegalArgumentException.class, () -> new KernelDescriptor("k", "s", List.of(orphan)));
    }

    private static boolean hasField(final Class<?> type, final String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (final Field field : c.getDeclaredFields()) {
                if (field.getName().equals(name)) {
                    return true;
                }
            }
        }
        return false;
    }
}
