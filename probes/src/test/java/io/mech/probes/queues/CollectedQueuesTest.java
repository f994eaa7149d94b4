package io.mech.probes.queues;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class CollectedQueuesTest {

    private static QueueStats queue(final String site, final long maxDepth, final long traffic, final long alerts) {
        return new QueueStats("queue", "t", "t", site, 0, false, maxDepth, 0, QueueStats.UNBOUNDED,
            traffic, traffic, 0, 0, 0, Double.NaN, 1, -1, "", alerts, 4);
    }

    private static List<String> sites(final CollectedQueues kept) {
        return kept.list().stream().map(QueueStats::site).toList();
    }

    @Test
    void aStoppedServersBusyJobQueueOutlastsItsIdleBuffersQueuesCollectedAfterIt() {
        final CollectedQueues kept = new CollectedQueues();
        kept.add(queue("light.jobs", 2, 500, 0));
        kept.add(queue("loaded.jobs", 28, 900, 0));
        for (int i = 0; i < 3 * QueueSnapshot.MAX_COLLECTED; i++) {
            kept.add(queue("buffers." + i, 0, 0, 0));
        }
        final List<String> sites = sites(kept);
        assertEquals(QueueSnapshot.MAX_COLLECTED, sites.size(), sites.toString());
        assertEquals(List.of("light.jobs", "loaded.jobs", "buffers.0"), sites.subList(0, 3));
        assertEquals("buffers." + (QueueSnapshot.MAX_COLLECTED - 3), sites.get(sites.size() - 1), "idle equals: the oldest kept, the newest left");
    }

    @Test
    void whenFullTheLeastTellingGoesAlertsThenDepthThenTrafficThenAge() {
        final CollectedQueues kept = new CollectedQueues();
        kept.add(queue("alerted", 1, 1, 1));
        kept.add(queue("deep", 50, 1, 0));
        kept.add(queue("busy", 1, 1_000, 0));
        kept.add(queue("quiet.old", 1, 1, 0));
        for (int i = 4; i < QueueSnapshot.MAX_COLLECTED; i++) {
            kept.add(queue("quiet." + i, 1, 1, 0));
        }
        kept.add(queue("busier", 1, 2_000, 0));
        List<String> sites = sites(kept);
        assertEquals(List.of("alerted", "deep", "busy"), sites.subList(0, 3), "the oldest of the least telling went: " + sites);
        assertEquals("busier", sites.get(sites.size() - 1));
        kept.add(queue("idle", 0, 0, 0));
        assertEquals(sites, sites(kept), "a queue that tells less than every one kept is not kept");
        for (int i = 0; i < QueueSnapshot.MAX_COLLECTED; i++) {
            kept.add(queue("alerted." + i, 0, 0, 2));
        }
        sites = sites(kept);
        assertEquals(QueueSnapshot.MAX_COLLECTED, sites.size());
        assertEquals(List.of(), sites.stream().filter(s -> !s.startsWith("alerted")).toList(), "alerts outrank depth and traffic");
    }
}
