package io.mech.exporter.http;

import java.io.IOException;

/**
 * Answers one request. Called on one of the server's serving threads, several at once; the request
 * and response are that thread's and valid only until the call returns.
 */
public interface Handler {

    /**
     * Answers the request with one call of {@link Response#send}; a handler that returns without
     * sending leaves the server to answer 500.
     *
     * @throws IOException when sending failed: the client went away or its deadline passed
     */
    void handle(Request request, Response response) throws IOException;
}
