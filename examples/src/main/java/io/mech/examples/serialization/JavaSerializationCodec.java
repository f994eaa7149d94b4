package io.mech.examples.serialization;

import io.mech.examples.trades.Trade;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;

/** java.io serialization: class descriptors, reflection and fresh streams per message. */
public final class JavaSerializationCodec implements TradeCodec {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);

    @Override
    public Trade roundTrip(final Trade trade) {
        try {
            bytes.reset();
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(trade);
            }
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
                return (Trade) in.readObject();
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        } catch (final ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
