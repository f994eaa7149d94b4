package io.mech.examples.lazyset;

import io.mech.examples.StopSignal;

/**
 * The two protocols over a {@link FlagPair}. Ping-pong: the ping thread publishes n and waits for
 * the pong thread to echo n. Catch-up: the ping thread publishes 1, 2, 3, ... without waiting
 * (up to {@link #MAX_LEAD} ahead) and the pong thread follows, echoing the latest value it saw.
 * A value of {@link #END} (negative) ends either protocol.
 */
public final class Exchange {
    /** How far the catch-up leader may run ahead of its follower. */
    public static final long MAX_LEAD = 1024;
    /**
     * Spin-waits between two reads of the follower's flag while the leader is held at
     * {@link #MAX_LEAD}: they keep its reads rare next to its writes however far behind the
     * follower falls (one read per write is how an exchange looks, which catch-up is not).
     */
    static final int BACKOFF_SPINS = 256;
    static final long END = Long.MIN_VALUE;

    private final FlagPair flags;
    private long sent;
    private long received;
    private long violations;

    /** @param flags the flags, both zero */
    public Exchange(final FlagPair flags) {
        this.flags = flags;
    }

    /** Ping side of ping-pong until {@code stop}; then publishes the end marker. */
    public void ping(final StopSignal stop) {
        final FlagPair f = flags;
        long n = 0;
        while (!stop.isRaised()) {
            f.setPing(++n);
            while (f.pong() != n) {
                Thread.onSpinWait();
            }
        }
        sent = n;
        f.setPing(END);
    }

    /** Pong side of ping-pong: echoes each value until the end marker. */
    public void pong() {
        final FlagPair f = flags;
        long expected = 1;
        long wrong = 0;
        while (true) {
            final long value = f.ping();
            if (value == END) {
                break;
            }
            if (value == expected) {
                f.setPong(value);
                expected++;
            } else if (value != expected - 1) {
                wrong++;
            }
        }
        received = expected - 1;
        violations = wrong;
    }

    /** Leader of catch-up: publishes increasing values until {@code stop}, then the end marker. */
    public void lead(final StopSignal stop) {
        final FlagPair f = flags;
        long n = 0;
        long followerSeen = 0;
        while (!stop.isRaised()) {
            if (n - followerSeen >= MAX_LEAD) {
                followerSeen = f.pong();
                if (n - followerSeen >= MAX_LEAD) {
                    for (int i = 0; i < BACKOFF_SPINS; i++) {
                        Thread.onSpinWait();
                    }
                }
                continue;
            }
            f.setPing(++n);
        }
        while (f.pong() != n) {
            Thread.onSpinWait();
        }
        sent = n;
        f.setPing(END);
    }

    /** Follower of catch-up: checks values never go backwards and echoes the latest. */
    public void follow() {
        final FlagPair f = flags;
        long last = 0;
        long wrong = 0;
        while (true) {
            final long value = f.ping();
            if (value == END) {
                break;
            }
            if (value < last) {
                wrong++;
            } else if (value > last) {
                last = value;
                f.setPong(value);
            }
        }
        received = last;
        violations = wrong;
    }

    /** @return values the ping side completed; read after it finished */
    public long sent() {
        return sent;
    }

    /** @return the last value the pong side acknowledged; read after it finished */
    public long received() {
        return received;
    }

    /** @return values seen out of order; read after the pong side finished */
    public long violations() {
        return violations;
    }
}
