package io.mech.exporter.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Request heads as HTTP/1.x writes them are read; anything else is refused rather than guessed at. */
class RequestTest {

    private static Request parsed(final String head, final Request.Parsed expected) {
        final byte[] buffer = new byte[Request.MAX_HEAD];
        final byte[] bytes = head.getBytes(StandardCharsets.ISO_8859_1);
        System.arraycopy(bytes, 0, buffer, 0, bytes.length);
        final int end = Request.headEnd(buffer, 0, bytes.length);
        assertEquals(bytes.length, end, "the head ends where it ends");
        final Request request = new Request(buffer);
        assertEquals(expected, request.parse(end), head);
        return request;
    }

    @Test
    void aScrapeIsReadWithItsQueryAndHeaders() {
        final Request request = parsed("GET /metrics?name[]=up HTTP/1.1\r\nHost: 127.0.0.1\r\naccept:  text/plain;version=0.0.4 \r\n"
            + "Accept-Encoding: gzip\r\nX: a\r\nx: b\r\n\r\n", Request.Parsed.OK);
        assertEquals("GET", request.method());
        assertTrue(request.isRead() && !request.isHead());
        assertTrue(request.pathIs("/metrics"));
        assertFalse(request.pathIs("/metric"));
        assertEquals("/metrics", request.path());
        assertEquals("name[]=up", request.query());
        assertEquals("text/plain;version=0.0.4", request.header("Accept"));
        assertEquals(List.of("a", "b"), request.headers("X"));
        assertNull(request.header("Authorization"));
        assertTrue(request.keepsAlive());
        assertFalse(request.hasBody());
    }

    @Test
    void connectionCloseHttp10AndBodiesEndTheConnection() {
        assertFalse(parsed("GET / HTTP/1.1\r\nConnection: keep-alive, Close\r\n\r\n", Request.Parsed.OK).keepsAlive());
        assertFalse(parsed("GET / HTTP/1.0\r\n\r\n", Request.Parsed.OK).keepsAlive());
        assertTrue(parsed("GET / HTTP/1.1\r\nConnection: closed\r\n\r\n", Request.Parsed.OK).keepsAlive());
        assertTrue(parsed("POST /metrics HTTP/1.1\r\nContent-Length: 5\r\n\r\n", Request.Parsed.OK).hasBody());
        assertTrue(parsed("POST /metrics HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", Request.Parsed.OK).hasBody());
        assertFalse(parsed("HEAD /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n", Request.Parsed.OK).hasBody());
    }

    @Test
    void malformedHeadsAreRefused() {
        for (final String head : List.of("GET\r\n\r\n", "GET /metrics\r\n\r\n", "GET metrics HTTP/1.1\r\n\r\n",
            "GET /metrics HTTP/2.0\r\n\r\n", "GET /metrics HTTP/1.1\r\nNo colon\r\n\r\n", "GET /metrics HTTP/1.1\r\nA : b\r\n\r\n",
            "GET /metrics HTTP/1.1\r\nA: b\r\n folded\r\n\r\n")) {
            parsed(head, Request.Parsed.MALFORMED);
        }
        parsed("GET / HTTP/1.1\r\n" + "A: b\r\n".repeat(Request.MAX_FIELDS + 1) + "\r\n", Request.Parsed.TOO_MANY_FIELDS);
    }

    @Test
    void theHeadsEndIsFoundAcrossReads() {
        final byte[] buffer = "GET / HTTP/1.1\r\n\r\nGET".getBytes(StandardCharsets.US_ASCII);
        assertEquals(-1, Request.headEnd(buffer, 0, 17));
        assertEquals(18, Request.headEnd(buffer, 17, 18));
        assertEquals(18, Request.headEnd(buffer, 0, buffer.length));
    }
}
