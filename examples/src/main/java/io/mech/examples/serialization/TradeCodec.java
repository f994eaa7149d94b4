package io.mech.examples.serialization;

import io.mech.examples.trades.Trade;

/** Encodes a trade to bytes and back; one round trip per call. Not thread safe. */
public interface TradeCodec {

    /**
     * @param trade the trade to encode
     * @return the trade decoded from its encoding
     */
    Trade roundTrip(Trade trade);
}
