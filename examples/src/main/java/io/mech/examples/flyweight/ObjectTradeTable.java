package io.mech.examples.flyweight;

import io.mech.examples.trades.Trade;

/** An array of Trade objects: a reference per row, then a header and fields per object. */
public final class ObjectTradeTable implements TradeTable {
    private final Trade[] trades;

    /** @param rows rows, filled with {@link Trade#nth} */
    public ObjectTradeTable(final int rows) {
        trades = new Trade[rows];
        for (int i = 0; i < rows; i++) {
            trades[i] = Trade.nth(i);
        }
    }

    @Override
    public int rows() {
        return trades.length;
    }

    @Override
    public long buyNotional(final int from, final int count) {
        long sum = 0;
        for (int i = from; i < from + count; i++) {
            final Trade trade = trades[i];
            if (trade.buy()) {
                sum += trade.priceTicks() * trade.quantity();
            }
        }
        return sum;
    }
}
