package io.mech.examples.flyweight;

import io.mech.examples.Check;
import io.mech.examples.Kernel;
import io.mech.examples.KernelDescriptor;
import io.mech.examples.Measurement;
import io.mech.examples.RunConfig;
import io.mech.examples.TimedRun;
import io.mech.examples.VariantDescriptor;
import io.mech.examples.trades.Trade;
import java.util.List;

/**
 * One thread totals the buy notional of a table of trades, scanning it again and again; each
 * full scan's total is checked against the total of the deterministic trade stream.
 */
public final class FlyweightKernel implements Kernel {

    /** Rows: 256 Ki trades, a few MiB either way. */
    public static final int ROWS = 1 << 18;
    private static final int BATCH = 4096;

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("flyweight",
            "scan a table of trade records: array of objects versus a flyweight over packed bytes",
            List.of(
                    VariantDescriptor.builder("object-array", "an array of Trade records").build(),
                    VariantDescriptor.builder("heap-flyweight", "a flyweight over a heap ByteBuffer").build(),
                    VariantDescriptor.builder("off-heap-flyweight", "a flyweight over direct (off-heap) memory").build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final TradeTable table = table(variant.name());
        final long expectedScan = expectedBuyNotional(table.rows());
        final long[] scans = new long[2];
        final long[] partial = new long[1];
        final int[] row = new int[1];
        final TimedRun.Result result = TimedRun.run(config, List.of(
                new TimedRun.Role("flyweight-scanner", BATCH, count -> {
                    partial[0] += table.buyNotional(row[0], count);
                    row[0] += count;
                    if (row[0] == table.rows()) {
                        scans[0]++;
                        if (partial[0] != expectedScan) {
                            scans[1]++;
                        }
                        partial[0] = 0;
                        row[0] = 0;
                    }
                })));
        Check.equal("scans with a wrong total", 0, scans[1]);
        Check.equal("rows read", result.total(), scans[0] * table.rows() + row[0]);
        return Measurement.of(1, result.total(), result.nanos()).with("full_scans", scans[0]);
    }

    /**
     * @param variant a variant name of this kernel
     * @return a freshly filled table of {@link #ROWS} rows
     */
    public static TradeTable table(final String variant) {
        switch (variant) {
            case "object-array":
                return new ObjectTradeTable(ROWS);
            case "heap-flyweight":
                return new FlyweightTradeTable(ROWS, false);
            case "off-heap-flyweight":
                return new FlyweightTradeTable(ROWS, true);
            default:
                throw new IllegalArgumentException("no flyweight variant " + variant);
        }
    }

    static long expectedBuyNotional(final int rows) {
        long sum = 0;
        for (int i = 0; i < rows; i++) {
            sum += Trade.nth(i).buyNotional();
        }
        return sum;
    }
}
