package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProtobufBufferTest {

    private static byte[] bytes(final ProtobufBuffer buffer) throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        buffer.writeTo(out);
        assertEquals(buffer.size(), out.size());
        return out.toByteArray();
    }

    @Test
    void varintsRoundTripFromOneByteToTen() throws IOException {
        final long[] values = {0, 1, 127, 128, 300, 16_383, 16_384, Integer.MAX_VALUE, Long.MAX_VALUE, -1, Long.MIN_VALUE};
        final ProtobufBuffer buffer = new ProtobufBuffer(1);
        for (final long value : values) {
            buffer.varintField(1, value);
        }
        final List<ProtobufDecoder.Field> fields = ProtobufDecoder.message(bytes(buffer)).all(1);
        for (int i = 0; i < values.length; i++) {
            assertEquals(values[i], fields.get(i).varint());
        }
        // 0-127 take one byte, 128 and 300 two, a negative int64 ten, as protobuf writes them.
        assertEquals(2, sizeOf(0));
        assertEquals(3, sizeOf(128));
        assertEquals(11, sizeOf(-1));
    }

    private static int sizeOf(final long varint) {
        final ProtobufBuffer buffer = new ProtobufBuffer(16);
        buffer.varintField(1, varint);
        return buffer.size();
    }

    @Test
    void sintsAreZigzagged() throws IOException {
        final ProtobufBuffer buffer = new ProtobufBuffer(8);
        buffer.sintField(1, -1);
        buffer.sintField(2, 1);
        buffer.sintField(3, Integer.MIN_VALUE);
        buffer.sintField(4, Long.MIN_VALUE);
        final ProtobufDecoder.Message message = ProtobufDecoder.message(bytes(buffer));
        assertEquals(1, message.varint(1), "-1 is 1 on the wire");
        assertEquals(2, message.varint(2), "1 is 2 on the wire");
        assertEquals(Integer.MIN_VALUE, message.sint(3));
        assertEquals(Long.MIN_VALUE, message.sint(4));
    }

    @Test
    void nestedLengthsOfOneToThreeBytesAreRight() throws IOException {
        for (final int length : new int[] {0, 127, 128, 16_383, 16_384, 100_000}) {
            final ProtobufBuffer buffer = new ProtobufBuffer(4);
            buffer.varintField(1, 7);
            final int outer = buffer.begin(2);
            final int inner = buffer.begin(3);
            buffer.stringField(4, "x".repeat(length));
            buffer.end(inner);
            buffer.doubleField(5, 2.5);
            buffer.end(outer);
            buffer.varintField(6, 9);
            final ProtobufDecoder.Message message = ProtobufDecoder.message(bytes(buffer));
            assertEquals(List.of(1, 2, 6), message.numbers());
            assertEquals(7, message.varint(1));
            assertEquals(9, message.varint(6), "the field after the nested message, at length " + length);
            final ProtobufDecoder.Message nested = message.message(2);
            assertEquals(2.5, nested.dbl(5));
            assertEquals(length, nested.message(3).string(4).length());
        }
    }

    @Test
    void topLevelMessagesAreLengthDelimited() throws IOException {
        final ProtobufBuffer buffer = new ProtobufBuffer(64);
        for (int i = 0; i < 3; i++) {
            final int message = buffer.begin(0);
            buffer.varintField(1, i);
            buffer.end(message);
        }
        final List<ProtobufDecoder.Message> messages = ProtobufDecoder.delimited(bytes(buffer));
        assertEquals(3, messages.size());
        assertEquals(2, messages.get(2).varint(1));
    }

    @Test
    void discardDropsAMessageAndWhatFollows() throws IOException {
        final ProtobufBuffer buffer = new ProtobufBuffer(64);
        final int kept = buffer.begin(0);
        buffer.varintField(1, 1);
        buffer.end(kept);
        final int dropped = buffer.begin(0);
        buffer.stringField(1, "gone");
        buffer.discard(dropped);
        assertEquals(1, ProtobufDecoder.delimited(bytes(buffer)).size());
    }

    @Test
    void stringsAreUtf8WithTheirSuffix() throws IOException {
        final ProtobufBuffer buffer = new ProtobufBuffer(8);
        buffer.stringField(1, "requests", "_total");
        buffer.stringField(2, "Zürich 日本 😀", "_info");
        buffer.stringField(3, "lone \uD800 surrogate");
        buffer.stringField(4, "");
        final ProtobufDecoder.Message message = ProtobufDecoder.message(bytes(buffer));
        assertEquals("requests_total", message.string(1));
        assertEquals("Zürich 日本 😀_info", message.string(2));
        assertEquals("lone ? surrogate", message.string(3));
        assertEquals("", message.string(4));
    }

    @Test
    void doublesAreLittleEndianIeee() throws IOException {
        final ProtobufBuffer buffer = new ProtobufBuffer(8);
        buffer.doubleField(1, 1.0);
        final byte[] bytes = bytes(buffer);
        // tag 1<<3|1, then 1.0 = 0x3FF0000000000000 with its low byte first
        assertEquals(List.of(9, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F), unsigned(bytes));
    }

    private static List<Integer> unsigned(final byte[] bytes) {
        final Integer[] values = new Integer[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            values[i] = bytes[i] & 0xFF;
        }
        return List.of(values);
    }
}
