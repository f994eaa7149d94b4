package io.mech.examples.falsesharing;

/**
 * The defect with many objects: an array of small cells allocated back to back, even cells owned
 * by the first writer and odd cells by the second. Whatever the placement, neighbours written by
 * different threads share lines, unless every object is padded to a line by
 * {@code -XX:ObjectAlignmentInBytes=64}.
 */
public final class CellArray implements CounterPair {
    private static final int CELLS = 64;
    private static final int MASK = CELLS - 1;

    private final Cell[] cells = new Cell[CELLS];

    /**
     * Allocates the cells consecutively, which is what puts neighbours on one line, then has them
     * moved to the old generation by a full collection, which slides objects along in address
     * order: a young collection during the run would copy them with two workers stealing from each
     * other, which can set each thread's cells apart (one CI run found only adjacent lines).
     */
    public CellArray() {
        for (int i = 0; i < CELLS; i++) {
            cells[i] = new Cell();
        }
        System.gc();
    }

    @Override
    public void runFirst(final int times) {
        final Cell[] local = cells;
        for (int i = 0; i < times; i++) {
            local[(i << 1) & MASK].value++;
        }
    }

    @Override
    public void runSecond(final int times) {
        final Cell[] local = cells;
        for (int i = 0; i < times; i++) {
            local[((i << 1) + 1) & MASK].value++;
        }
    }

    @Override
    public long first() {
        return sum(0);
    }

    @Override
    public long second() {
        return sum(1);
    }

    private long sum(final int from) {
        long total = 0;
        for (int i = from; i < CELLS; i += 2) {
            total += cells[i].value;
        }
        return total;
    }
}
