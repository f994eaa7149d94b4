package io.mech.examples.flyweight;

import io.mech.examples.trades.Trade;
import java.nio.ByteBuffer;

/** Trades packed into one buffer, read through a {@link TradeFlyweight}: no object per row. */
public final class FlyweightTradeTable implements TradeTable {
    private final int rows;
    private final TradeFlyweight cursor;

    /**
     * @param rows   rows, filled with {@link Trade#nth}
     * @param direct true for off-heap memory, false for a heap byte[]
     */
    public FlyweightTradeTable(final int rows, final boolean direct) {
        this.rows = rows;
        final int bytes = rows * TradeFlyweight.ROW_BYTES;
        this.cursor = new TradeFlyweight(direct ? ByteBuffer.allocateDirect(bytes) : ByteBuffer.allocate(bytes));
        for (int i = 0; i < rows; i++) {
            final Trade trade = Trade.nth(i);
            cursor.wrap(i).set(trade.id(), trade.priceTicks(), trade.quantity(), trade.buy());
        }
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public long buyNotional(final int from, final int count) {
        final TradeFlyweight row = cursor;
        long sum = 0;
        for (int i = from; i < from + count; i++) {
            row.wrap(i);
            if (row.buy()) {
                sum += row.priceTicks() * row.quantity();
            }
        }
        return sum;
    }
}
