package io.mech.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** The exit's wait for mech ends as soon as what it waits for comes, and gives up within the budget when it never does. */
class ExitBudgetTest {

    @Test
    void whatComesEndsTheWaitAtOnce() throws InterruptedException {
        final ExitBudget budget = ExitBudget.fromNow(() -> -1);
        final long start = System.nanoTime();
        assertTrue(budget.waitFor(nanos -> true));
        assertTrue(System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(ExitBudget.STOP_BUDGET_MILLIS));
    }

    @Test
    void whatNeverComesIsGivenUpNoEarlierThanTheBudgetAndNoLaterThanAStarvedMachinesBound() throws InterruptedException {
        final ExitBudget budget = ExitBudget.fromNow(() -> -1);
        final long start = System.nanoTime();
        assertFalse(budget.waitFor(ExitBudgetTest::neverComes));
        final long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(waitedMillis >= ExitBudget.STOP_BUDGET_MILLIS - 1, waitedMillis + " ms");
        // a late wake-up of the last poll is all it may add to the starved bound
        assertTrue(waitedMillis < ExitBudget.STARVED_STOP_MILLIS + 1_000, waitedMillis + " ms");
        assertTrue(budget.waitedMillis() >= ExitBudget.STOP_BUDGET_MILLIS - 1, budget.waitedMillis() + " ms");
    }

    @Test
    void timeTheVmHeldEveryThreadIsAddedToTheBudgetUpToAStarvedMachinesBound() throws InterruptedException {
        final long heldMillis = 300;
        final long[] reads = {0};
        // the VM's stopped time: none when the budget begins, 300 ms at every read after
        final ExitBudget budget = ExitBudget.fromNow(() -> reads[0]++ == 0 ? 0 : TimeUnit.MILLISECONDS.toNanos(heldMillis));
        final long start = System.nanoTime();
        assertFalse(budget.waitFor(ExitBudgetTest::neverComes));
        final long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(waitedMillis >= ExitBudget.STOP_BUDGET_MILLIS + heldMillis - 1, waitedMillis + " ms");
        assertTrue(waitedMillis < ExitBudget.STARVED_STOP_MILLIS + 1_000, waitedMillis + " ms");

        final long[] longReads = {0};
        final ExitBudget heldLong = ExitBudget.fromNow(() -> longReads[0]++ == 0 ? 0 : TimeUnit.SECONDS.toNanos(60));
        final long again = System.nanoTime();
        assertFalse(heldLong.waitFor(ExitBudgetTest::neverComes));
        final long bounded = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - again);
        assertTrue(bounded >= ExitBudget.STARVED_STOP_MILLIS - 1 && bounded < ExitBudget.STARVED_STOP_MILLIS + 1_000,
            "a VM held a minute keeps the exit no longer than the bound: " + bounded + " ms");
    }

    /** Waits the whole time given, as a join and a tryLock do (a park may wake early), and never gets what it waits for. */
    private static boolean neverComes(final long nanos) {
        final long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
        return false;
    }
}
