package corpus.shapes;

import corpus.Workers;

/**
 * Four worker loops, started in {@code main} and running until the false-sharing window is over,
 * each incrementing its own slot of {@link PlainArraySlots#adjacent} (slots 0 to 3) and of its
 * padded twin {@link PlainArraySlots#strided} (slots 0, 16, 32, 48).
 */
public final class ArraySlotsHost {

    private ArraySlotsHost() {
    }

    /**
     * Runs the four writers until the window is over.
     *
     * @param args none
     */
    public static void main(final String[] args) throws InterruptedException {
        final PlainArraySlots slots = new PlainArraySlots();
        final Workers workers = new Workers();
        for (int t = 0; t < 4; t++) {
            final int slot = t;
            workers.start("slot-" + t + "-writer", () -> {
                while (Workers.running()) {
                    slots.adjacent[slot]++;
                    slots.strided[slot * PlainArraySlots.STRIDE]++;
                }
            });
        }
        System.exit(workers.awaitWindowThenStop());
    }
}
