package io.mech.examples.serialization;

import io.mech.examples.trades.Trade;
import java.nio.ByteBuffer;

/** Fixed-layout binary encoding into a reused ByteBuffer, on the heap or in direct memory. */
public final class BufferCodec implements TradeCodec {
    private final ByteBuffer buffer;

    /** @param direct true for a direct (off-heap) buffer */
    public BufferCodec(final boolean direct) {
        buffer = direct ? ByteBuffer.allocateDirect(Trade.ENCODED_BYTES) : ByteBuffer.allocate(Trade.ENCODED_BYTES);
    }

    @Override
    public Trade roundTrip(final Trade trade) {
        final ByteBuffer b = buffer;
        b.clear();
        b.putLong(trade.id()).putLong(trade.priceTicks()).putInt(trade.quantity()).put((byte) (trade.buy() ? 1 : 0));
        b.flip();
        return new Trade(b.getLong(), b.getLong(), b.getInt(), b.get() != 0);
    }
}
