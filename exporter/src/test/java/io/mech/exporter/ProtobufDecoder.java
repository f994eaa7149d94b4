package io.mech.exporter;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads protobuf's wire format back for the tests, knowing nothing of metrics.proto: a message is
 * its fields in order, each a number, a wire type and its raw value. Strict: a truncated varint,
 * a length past the end or an unknown wire type fails the test.
 */
final class ProtobufDecoder {

    private ProtobufDecoder() {
    }

    /** One field as it stood on the wire. */
    record Field(int number, int wireType, long varint, byte[] bytes) {
    }

    /** The messages of a stream of length-delimited messages, as {@code writeDelimitedTo} frames them. */
    static List<Message> delimited(final byte[] stream) {
        final List<Message> messages = new ArrayList<>();
        final int[] at = {0};
        while (at[0] < stream.length) {
            final int length = Math.toIntExact(varint(stream, at));
            messages.add(message(slice(stream, at, length)));
        }
        return messages;
    }

    static Message message(final byte[] bytes) {
        final List<Field> fields = new ArrayList<>();
        final int[] at = {0};
        while (at[0] < bytes.length) {
            final long tag = varint(bytes, at);
            final int number = (int) (tag >>> 3);
            final int wireType = (int) (tag & 7);
            switch (wireType) {
                case 0 -> fields.add(new Field(number, wireType, varint(bytes, at), null));
                case 1 -> fields.add(new Field(number, wireType, fixed64(bytes, at), null));
                case 2 -> fields.add(new Field(number, wireType, 0, slice(bytes, at, Math.toIntExact(varint(bytes, at)))));
                default -> throw new AssertionError("wire type " + wireType + " of field " + number);
            }
        }
        return new Message(fields);
    }

    private static long varint(final byte[] bytes, final int[] at) {
        long value = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (at[0] >= bytes.length) {
                throw new AssertionError("varint runs past the end at " + at[0]);
            }
            final byte b = bytes[at[0]++];
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new AssertionError("varint longer than 10 bytes");
    }

    private static long fixed64(final byte[] bytes, final int[] at) {
        final byte[] raw = slice(bytes, at, 8);
        long value = 0;
        for (int i = 7; i >= 0; i--) {
            value = value << 8 | (raw[i] & 0xFF);
        }
        return value;
    }

    private static byte[] slice(final byte[] bytes, final int[] at, final int length) {
        if (length < 0 || at[0] + length > bytes.length) {
            throw new AssertionError(length + " bytes at " + at[0] + " run past the end, " + bytes.length);
        }
        final byte[] slice = Arrays.copyOfRange(bytes, at[0], at[0] + length);
        at[0] += length;
        return slice;
    }

    /** A decoded message: its fields, in wire order. */
    record Message(List<Field> fields) {

        List<Field> all(final int number) {
            return fields.stream().filter(f -> f.number() == number).toList();
        }

        boolean has(final int number) {
            return !all(number).isEmpty();
        }

        /** The field, which must occur exactly once with the given wire type. */
        Field one(final int number, final int wireType) {
            final List<Field> found = all(number);
            if (found.size() != 1 || found.get(0).wireType() != wireType) {
                throw new AssertionError("field " + number + " of wire type " + wireType + " once, found " + found.size()
                    + " in " + numbers());
            }
            return found.get(0);
        }

        long varint(final int number) {
            return one(number, 0).varint();
        }

        long sint(final int number) {
            final long raw = varint(number);
            return (raw >>> 1) ^ -(raw & 1);
        }

        List<Long> sints(final int number) {
            return all(number).stream().map(f -> {
                if (f.wireType() != 0) {
                    throw new AssertionError("field " + number + " is not a varint");
                }
                return (f.varint() >>> 1) ^ -(f.varint() & 1);
            }).toList();
        }

        double dbl(final int number) {
            return Double.longBitsToDouble(one(number, 1).varint());
        }

        String string(final int number) {
            return new String(one(number, 2).bytes(), StandardCharsets.UTF_8);
        }

        Message message(final int number) {
            return ProtobufDecoder.message(one(number, 2).bytes());
        }

        List<Message> messages(final int number) {
            return all(number).stream().map(f -> {
                if (f.wireType() != 2) {
                    throw new AssertionError("field " + number + " is not length-delimited");
                }
                return ProtobufDecoder.message(f.bytes());
            }).toList();
        }

        /** The field numbers in wire order, for messages that say what was there. */
        List<Integer> numbers() {
            return fields.stream().map(Field::number).toList();
        }
    }
}
