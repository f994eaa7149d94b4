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
        final ExitBudget budget = ExitBudget.fromNow();
        final long start = System.nanoTime();
        assertTrue(budget.waitFor(nanos -> true));
        assertTrue(System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(ExitBudget.STOP_BUDGET_MILLIS));
    }

    @Test
    void whatNeverComesIsGivenUpNoEarlierThanTheBudgetAndNoLaterThanAStarvedMachinesBound() throws InterruptedException {
        final ExitBudget budget = ExitBudget.fromNow();
        final long start = System.nanoTime();
        // waits the whole time given, as a join and a tryLock do: a park may wake early
        assertFalse(budget.waitFor(nanos -> {
            final long end = System.nanoTime() + nanos;
            for (long left = nanos; left > 0; left = end - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
            return false;
        }));
        final long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(waitedMillis >= ExitBudget.STOP_BUDGET_MILLIS - 1, waitedMillis + " ms");
        // a late wake-up of the last poll is all it may add to the starved bound
        assertTrue(waitedMillis < ExitBudget.STARVED_STOP_MILLIS + 1_000, waitedMillis + " ms");
        assertTrue(budget.waitedMillis() >= ExitBudget.STOP_BUDGET_MILLIS - 1, budget.waitedMillis() + " ms");
    }
}
