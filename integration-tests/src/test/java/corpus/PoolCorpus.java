package corpus;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import jdk.jfr.consumer.RecordingStream;

/**
 * A host of the pool corpus (io.mech.it.PoolCorpusTest), outside io.mech so that mech takes it for
 * the user's code: {@value #WORKERS} workers borrow connections from a HikariCP pool of the size
 * given as the first argument, over an in-memory H2 database, {@value #TRANSACTIONS} transactions
 * in all. A transaction updates and reads one row and holds its connection over a simulated 1 ms
 * round trip. With a pool of 2 the workers queue in HikariCP's borrow, parked in its
 * SynchronousQueue hand-off; with a pool of 16 each finds its own connection free.
 *
 * <p>Each worker times its own borrows ({@code getConnection}), which is the truth the test holds
 * mech's figure to: the time in all borrows, and in those of at least {@value #THRESHOLD_MILLIS}
 * ms, the lock probe's threshold. Meanwhile two executors whose workers this class's thread factory
 * runs (a fixed pool over a LinkedBlockingQueue, a cached one over a SynchronousQueue) get a no-op
 * task every 2 ms, so their workers keep parking idle on their queues and waking: idle workers,
 * which mech is not to show.
 *
 * <p>Once the workers are done, the host listens to mech's periodic {@code mech.LockContention}
 * event for the borrow's wait until it reports most of the long borrows' time or
 * {@link #HEARD} has passed, so the report at exit holds what JFR had yet to deliver. It prints
 * {@code pool=<size> transactions=<n> seconds=<s> borrows=<n> borrow_ms=<all> long_borrow_ms=<at
 * least the threshold> longest_borrow_ms=<ms> idle_tasks=<n> heard_ms=<mech's events' sum>}.
 */
public final class PoolCorpus {

    /** The class and site of HikariCP's borrow wait, as mech's rows name them. */
    public static final String HANDOFF = "java.util.concurrent.SynchronousQueue";
    /** The call site's method, the first frame outside the JDK under the hand-off's poll. */
    public static final String BORROW = "com.zaxxer.hikari.util.ConcurrentBag.borrow";
    /** The method in this class under which the executors' workers run. */
    public static final String POOL_THREAD = "corpus.PoolCorpus.runPoolThread";

    static final int WORKERS = 16;
    static final int TRANSACTIONS = 3_000;
    static final long THRESHOLD_MILLIS = 1;
    private static final Duration FILLED = Duration.ofSeconds(20);
    private static final Duration HEARD = Duration.ofSeconds(8);
    private static final int ACCOUNTS = 64;

    private static final AtomicLong LEFT = new AtomicLong(TRANSACTIONS);
    private static volatile boolean feeding = true;

    private PoolCorpus() {
    }

    public static void main(final String[] args) throws Exception {
        final int poolSize = Integer.parseInt(args[0]);
        LockCorpus.awaitMech();
        final HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:h2:mem:corpus;DB_CLOSE_DELAY=-1");
        config.setPoolName("corpus");
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(poolSize);
        config.setConnectionTimeout(30_000);
        final DoubleAdder heardMillis = new DoubleAdder();
        try (HikariDataSource pool = new HikariDataSource(config);
             RecordingStream mechs = new RecordingStream()) {
            createAccounts(pool);
            awaitFilled(pool, poolSize);
            mechs.enable("mech.LockContention").withPeriod(Duration.ofSeconds(1));
            mechs.onEvent("mech.LockContention", e -> {
                if (e.getString("kind").equals("juc_wait") && e.getString("lockClass").equals(HANDOFF)
                    && e.getString("callSite").startsWith(BORROW + ":")) {
                    heardMillis.add(e.getLong("blockedTime") / 1e6);
                }
            });
            mechs.startAsync();

            final ExecutorService fixed = idleExecutor(new LinkedBlockingQueue<>(), 2);
            final ExecutorService cached = idleExecutor(new SynchronousQueue<>(), Integer.MAX_VALUE);
            final AtomicLong idleTasks = new AtomicLong();
            final Thread feeder = new Thread(() -> feed(fixed, cached, idleTasks), "idle-feeder");
            feeder.start();

            final Borrower[] borrowers = new Borrower[WORKERS];
            final List<Thread> threads = new ArrayList<>();
            final long start = System.nanoTime();
            for (int w = 0; w < WORKERS; w++) {
                borrowers[w] = new Borrower(pool);
                final Thread thread = new Thread(borrowers[w], "borrower-" + w);
                threads.add(thread);
                thread.start();
            }
            for (final Thread thread : threads) {
                thread.join();
            }
            final double seconds = (System.nanoTime() - start) / 1e9;
            feeding = false;
            feeder.join();
            // The idle executors are not shut down: their workers are daemons and end with the host.
            // A shutdown wakes every worker at once, and on a busy machine the exiting workers
            // contend for their pool's main lock (1.0 ms once, ci35): real contention, but not the
            // idle waits this host shows, which are all it promises at the thread factory's method.

            long borrows = 0;
            long all = 0;
            long longOnes = 0;
            long longest = 0;
            for (final Borrower b : borrowers) {
                if (b.failure != null) {
                    throw b.failure;
                }
                borrows += b.borrows;
                all += b.borrowNanos;
                longOnes += b.longBorrowNanos;
                longest = Math.max(longest, b.longestNanos);
            }
            final long deadline = System.nanoTime() + HEARD.toNanos();
            while (heardMillis.sum() < 0.9 * longOnes / 1e6 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            System.out.printf(Locale.ROOT, "pool=%d transactions=%d seconds=%.3f borrows=%d borrow_ms=%.3f long_borrow_ms=%.3f "
                    + "longest_borrow_ms=%.3f idle_tasks=%d heard_ms=%.3f%n", poolSize, TRANSACTIONS, seconds, borrows, all / 1e6,
                longOnes / 1e6, longest / 1e6, idleTasks.get(), heardMillis.sum());
        }
    }

    private static void createAccounts(final HikariDataSource pool) throws SQLException {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE account (id INT PRIMARY KEY, balance BIGINT)");
            for (int id = 0; id < ACCOUNTS; id++) {
                s.execute("INSERT INTO account VALUES (" + id + ", 0)");
            }
        }
    }

    /** Waits until HikariCP has opened every connection, so no borrow waits for the pool to fill. */
    private static void awaitFilled(final HikariDataSource pool, final int size) throws InterruptedException {
        final long deadline = System.nanoTime() + FILLED.toNanos();
        while (pool.getHikariPoolMXBean().getTotalConnections() < size) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the pool did not fill to " + size + " within " + FILLED);
            }
            Thread.sleep(10);
        }
    }

    private static ExecutorService idleExecutor(final BlockingQueue<Runnable> queue, final int most) {
        return new ThreadPoolExecutor(Math.min(most, 2), most, 1, TimeUnit.MINUTES, queue,
            worker -> {
                final Thread thread = new Thread(() -> runPoolThread(worker), "idle-worker");
                thread.setDaemon(true);
                return thread;
            });
    }

    /** Runs an executor's worker inside this class's code, as factories that set up a thread's context do. */
    private static void runPoolThread(final Runnable worker) {
        worker.run();
    }

    private static void feed(final ExecutorService fixed, final ExecutorService cached, final AtomicLong tasks) {
        try {
            while (feeding) {
                fixed.execute(tasks::incrementAndGet);
                cached.execute(tasks::incrementAndGet);
                Thread.sleep(2);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One worker: transactions until {@link #LEFT} runs out, timing each borrow. Its figures are
     * its own until its thread ends; main reads them after {@code join}.
     */
    private static final class Borrower implements Runnable {
        private final HikariDataSource pool;
        long borrows;
        long borrowNanos;
        long longBorrowNanos;
        long longestNanos;
        Exception failure;

        Borrower(final HikariDataSource pool) {
            this.pool = pool;
        }

        @Override
        public void run() {
            final long threshold = TimeUnit.MILLISECONDS.toNanos(THRESHOLD_MILLIS);
            try {
                while (LEFT.getAndDecrement() > 0) {
                    final long start = System.nanoTime();
                    try (Connection c = pool.getConnection()) {
                        final long waited = System.nanoTime() - start;
                        borrows++;
                        borrowNanos += waited;
                        longestNanos = Math.max(longestNanos, waited);
                        if (waited >= threshold) {
                            longBorrowNanos += waited;
                        }
                        transaction(c, (int) (borrows % ACCOUNTS));
                    }
                }
            } catch (final SQLException | InterruptedException e) {
                failure = e;
            }
        }

        private static void transaction(final Connection c, final int id) throws SQLException, InterruptedException {
            try (PreparedStatement update = c.prepareStatement("UPDATE account SET balance = balance + 1 WHERE id = ?");
                 PreparedStatement read = c.prepareStatement("SELECT balance FROM account WHERE id = ?")) {
                update.setInt(1, id);
                update.executeUpdate();
                read.setInt(1, id);
                try (ResultSet rs = read.executeQuery()) {
                    rs.next();
                }
            }
            // the database's round trip over a network, which an in-memory database does not have
            Thread.sleep(1);
        }
    }
}
