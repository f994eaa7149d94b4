package io.mech.replay;

/**
 * The logs of a merge ordered by the start of their current line, earliest first, ties to the
 * log named first: a binary heap of log numbers with their keys in primitive arrays, since a merge
 * of a thousand day-logs takes and puts back 86 million of them.
 */
final class MergeOrder {

    private final int[] heap;
    private final double[] startSec;
    private int size;

    /** @param logs how many logs there are, numbered from 0 */
    MergeOrder(final int logs) {
        heap = new int[logs];
        startSec = new double[logs];
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Puts a log back (or in) with the start of its current line, in seconds. */
    void add(final int log, final double start) {
        startSec[log] = start;
        int at = size++;
        while (at > 0) {
            final int parent = (at - 1) >>> 1;
            if (!before(log, heap[parent])) {
                break;
            }
            heap[at] = heap[parent];
            at = parent;
        }
        heap[at] = log;
    }

    /** Takes out the log whose current line starts first. */
    int poll() {
        final int first = heap[0];
        final int last = heap[--size];
        int at = 0;
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(heap[child + 1], heap[child])) {
                child++;
            }
            if (!before(heap[child], last)) {
                break;
            }
            heap[at] = heap[child];
            at = child;
        }
        if (size > 0) {
            heap[at] = last;
        }
        return first;
    }

    private boolean before(final int a, final int b) {
        return startSec[a] < startSec[b] || startSec[a] == startSec[b] && a < b;
    }
}
