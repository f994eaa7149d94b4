package io.mech.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonReaderTest {

    @Test
    void readsEveryKindOfValueAsWritten() {
        final Map<String, Object> o = JsonReader.object(
            " {\"a\":1,\"b\":-2.50,\"c\":1e-5,\"d\":\"q\\\"\\\\\\n\\u00e9]}\",\"e\":[true,false,null,{}],\"f\":[]} ");
        assertEquals(List.of("a", "b", "c", "d", "e", "f"), List.copyOf(o.keySet()));
        assertEquals(new BigDecimal("1"), o.get("a"));
        assertEquals("-2.50", o.get("b").toString());
        assertEquals(1e-5, ((BigDecimal) o.get("c")).doubleValue());
        assertEquals("q\"\\\n\u00e9]}", o.get("d"));
        assertEquals(Arrays.asList(true, false, null, Map.of()), o.get("e"));
        assertEquals(List.of(), o.get("f"));
        assertNull(JsonReader.read("null"));
    }

    @Test
    void whatIsNotJsonFailsWithWhere() {
        for (final String bad : List.of("{\"a\":1,}", "{\"a\":1", "[1 2]", "{\"a\":1,\"a\":2}", "\"open", "{a:1}", "01x", "{} {}", "")) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JsonReader.read(bad), bad);
            assertTrue(e.getMessage().contains("at character"), e.getMessage());
        }
    }
}
