package io.mech.exporter.http;

/**
 * Told of each connection the server gave up on, once per connection, by the thread that gave up:
 * a serving thread, the deadline thread or the accepting thread.
 */
public interface Drops {

    /** A request was not read, or a response not taken, within its deadline. */
    void timedOut();

    /** The client went away before its response was sent whole, or reset the connection with it unread. */
    void disconnected();

    /** Every serving thread was busy and the waiting list full: the connection was closed unanswered. */
    void rejected();
}
