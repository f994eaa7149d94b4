package io.mech.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void commasGoBetweenMembersAtEveryDepthAndNeverAfterAName() {
        final String json = new Json().beginObject()
            .field("a", 1).beginArray("b").value("x").beginObject().field("c", true).endObject().beginArray().endArray().endArray()
            .beginObject("d").endObject().field("e", (String) null)
            .endObject().toString();
        assertEquals("{\"a\":1,\"b\":[\"x\",{\"c\":true},[]],\"d\":{},\"e\":null}", json);
    }

    @Test
    void stringsEscapeQuotesControlCharactersAndTheJavaScriptLineEnds() {
        assertEquals("\"q\\\" b\\\\ n\\n r\\r t\\t \\u0001 \\u001f \\u2028 \\u2029 é\"",
            Json.quote("q\" b\\ n\n r\r t\t \u0001 \u001f \u2028 \u2029 é"));
    }

    @Test
    void numbersThatAreNotFiniteAreNullOrLeftOut() {
        assertEquals("[0.25,null,null,1.0E-4]", new Json().beginArray().value(0.25).value(Double.NaN)
            .value(Double.POSITIVE_INFINITY).value(1e-4).endArray().toString());
        assertEquals("{\"known\":2.5}", new Json().beginObject().fieldIfKnown("unknown", Double.NaN)
            .fieldIfKnown("known", 2.5).endObject().toString());
    }

    @Test
    void millisecondsKeepMicroseconds() {
        assertEquals("{\"a_ms\":1.235,\"b_ms\":0.0,\"c_ms\":250.0}", new Json().beginObject()
            .millis("a_ms", 1_234_567).millis("b_ms", 400).millis("c_ms", 250_000_000).endObject().toString());
    }

    @Test
    void closingWhatIsNotOpenOrANameWithoutItsValueIsRefused() {
        assertThrows(IllegalStateException.class, () -> new Json().endObject());
        assertThrows(IllegalStateException.class, () -> new Json().beginObject().name("a").endObject());
    }
}
