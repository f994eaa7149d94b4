package io.mech.examples.flyweight;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A view of one fixed-size trade row in a buffer: move it with {@link #wrap} instead of
 * allocating an object per row. Layout, little-endian: id at 0, price at 8, quantity at 16,
 * side at 20, padding to 24 so that rows stay 8-byte aligned.
 *
 * <p>Not thread safe: one flyweight per thread.
 */
public final class TradeFlyweight {
    /** Bytes per row. */
    public static final int ROW_BYTES = 24;
    private static final int PRICE = 8;
    private static final int QUANTITY = 16;
    private static final int SIDE = 20;

    private final ByteBuffer buffer;
    private int offset;

    /** @param buffer the table's storage; its byte order is set to little-endian */
    public TradeFlyweight(final ByteBuffer buffer) {
        this.buffer = buffer.order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param row the row to view
     * @return this
     */
    public TradeFlyweight wrap(final int row) {
        offset = row * ROW_BYTES;
        return this;
    }

    /** @return the trade id */
    public long id() {
        return buffer.getLong(offset);
    }

    /** @return the price in ticks */
    public long priceTicks() {
        return buffer.getLong(offset + PRICE);
    }

    /** @return the quantity */
    public int quantity() {
        return buffer.getInt(offset + QUANTITY);
    }

    /** @return whether the trade is a buy */
    public boolean buy() {
        return buffer.get(offset + SIDE) != 0;
    }

    /**
     * Writes all fields of the current row.
     *
     * @param id         the id
     * @param priceTicks the price
     * @param quantity   the quantity
     * @param buy        the side
     */
    public void set(final long id, final long priceTicks, final int quantity, final boolean buy) {
        buffer.putLong(offset, id);
        buffer.putLong(offset + PRICE, priceTicks);
        buffer.putInt(offset + QUANTITY, quantity);
        buffer.put(offset + SIDE, (byte) (buy ? 1 : 0));
    }
}
