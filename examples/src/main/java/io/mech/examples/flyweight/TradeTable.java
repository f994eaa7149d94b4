package io.mech.examples.flyweight;

/** A table of trades that can total the buy notional of a range of rows. */
public interface TradeTable {

    /** @return rows in the table */
    int rows();

    /**
     * @param from  first row, inclusive
     * @param count rows to scan
     * @return the sum of price times quantity over buy rows in the range
     */
    long buyNotional(int from, int count);
}
