package io.mech.examples.trades;

import java.io.Serializable;

/**
 * A trade record.
 *
 * @param id         unique id
 * @param priceTicks price in ticks
 * @param quantity   quantity, positive
 * @param buy        true for a buy, false for a sell
 */
public record Trade(long id, long priceTicks, int quantity, boolean buy) implements Serializable {

    /** Bytes in the fixed binary encoding: id, price, quantity, side. */
    public static final int ENCODED_BYTES = 8 + 8 + 4 + 1;

    /**
     * The i-th trade of a deterministic stream, so any consumer can recompute what it should see.
     *
     * @param i index in the stream
     * @return that trade
     */
    public static Trade nth(final long i) {
        return new Trade(i, 10_000 + i % 997, 1 + (int) (i % 50), (i & 1) == 0);
    }

    /** @return price times quantity for a buy, zero for a sell */
    public long buyNotional() {
        return buy ? priceTicks * quantity : 0;
    }
}
