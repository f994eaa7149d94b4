package io.mech.probes.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading async-profiler's annotated collapsed stacks into culprits. */
class CulpritCountsTest {

    private static final String VM_THREAD = "clone3;start_thread;VMThread::run;SafepointSynchronize::begin;"
        + "SafepointSynchronize::synchronize_threads;__nanosleep;do_nanosleep_[k] 30\n";

    @Test
    void theCulpritIsTheTopmostApplicationFrameAndWhatItWasMostOftenIn() {
        final CulpritCounts counts = new CulpritCounts();
        counts.addCollapsed("java.lang.Thread.run_[0];app.Worker.loop_[0];app.Copier.copy_[j];java.lang.System.arraycopy_[j];acl_CopyRight 40\n"
            + "java.lang.Thread.run_[0];app.Worker.loop_[0];app.Copier.copy_[j];java.lang.System.arraycopy_[j];acl_CopyRight;"
            + "asm_sysvec_apic_timer_interrupt_[k];irqentry_exit_to_user_mode_[k] 2\n"
            + "java.lang.Thread.run_[0];app.Chunks.copy_[1];jlong_disjoint_arraycopy_avx3 12\n"
            + "java.lang.Thread.run_[0];app.Worker.loop_[0];app.Copier.copy_[j];jlong_disjoint_arraycopy_avx3 5\n"
            + VM_THREAD);
        final TtspCulprits culprits = counts.snapshot(5, null);
        assertEquals(59, culprits.samples(), "the VM thread's own samples are not the application's");
        assertEquals(List.of(new TtspCulprits.Culprit("app.Copier.copy", "java.lang.System.arraycopy", 47),
            new TtspCulprits.Culprit("app.Chunks.copy", "jlong_disjoint_arraycopy_avx3", 12)), culprits.culprits());
        assertEquals(47.0 / 59, culprits.share(culprits.culprits().get(0)), 1e-9);
    }

    @Test
    void aThreadInTheJdksCodeAloneIsNamedByItsTopmostJavaFrameAndMechsThreadsNotAtAll() {
        final CulpritCounts counts = new CulpritCounts();
        counts.addCollapsed("java.lang.Thread.run_[0];java.lang.ref.Reference.processPendingReferences_[j];java.util.Arrays.fill_[i] 11\n"
            + "java.lang.Thread.run_[0];io.mech.hiccup.HiccupMeter.run_[j];app.Callback.call_[j] 20\n"
            + "java.lang.Thread.run_[0];io.mech.examples.safepoint.Kernel.copy_[j] 10\n");
        assertEquals(List.of(new TtspCulprits.Culprit("app.Callback.call", "", 20),
            new TtspCulprits.Culprit("java.util.Arrays.fill", "", 11),
            new TtspCulprits.Culprit("io.mech.examples.safepoint.Kernel.copy", "", 10)), counts.snapshot(5, null).culprits(),
            "mech's frame below an application frame does not hide it, and mech's example kernels are the user's code");
        assertNull(CulpritCounts.culprit(new String[] {"java.lang.Thread.run_[0]", "io.mech.agent.Mech.run_[j]", "java.lang.Object.wait_[0]"}),
            "a stack whose first frame outside the JDK is mech's is mech's own");
    }

    @Test
    void fewSamplesNameNoCulpritAndManyDistinctOnesAreSummedAsOther() {
        final CulpritCounts counts = new CulpritCounts();
        counts.addCollapsed("app.A.run_[j] " + (CulpritCounts.MIN_SAMPLES - 1) + "\nnot a stack line\n\n");
        assertEquals(List.of(), counts.snapshot(5, null).culprits());
        assertEquals(CulpritCounts.MIN_SAMPLES - 1, counts.snapshot(5, null).samples());
        final StringBuilder many = new StringBuilder();
        for (int i = 0; i < CulpritCounts.MAX_CULPRITS + 20; i++) {
            many.append("app.M").append(i).append(".run_[j] 1\n");
        }
        counts.clear();
        counts.addCollapsed(many.toString());
        assertEquals(new TtspCulprits.Culprit(CulpritCounts.OTHER, "", 20), counts.snapshot(1, null).culprits().get(0));
    }
}
