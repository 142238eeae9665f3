package dev.shuttle.wire.http2;

/**
 * The stream ids this side opens (a client's view of its own), by RFC 9113 5.1.1's rules: odd for a client, even for
 * a server, handed out in increasing order as HEADERS leave, never reused; once past 2^31-1 the connection can open
 * no more. Every id of our parity below the next one was opened, so a frame the peer sends on an id of ours is on an
 * opened stream (maybe closed since) or on an idle one, a connection error for any frame but PRIORITY (5.1).
 *
 * <p>Not thread-safe: guarded by the connection's lock.
 */
public final class OwnStreamIds {
    private final int parity;
    /** The id the next stream gets; negative once the ids ran out (past 2^31-1). */
    private int next;

    /** @param client true for a client's ids (odd, from 1), false for a server's (even, from 2) */
    public OwnStreamIds(boolean client) {
        this(client ? 1 : 2);
    }

    /** Ids from {@code next} on (tests start near the end). */
    OwnStreamIds(int next) {
        this.parity = next & 1;
        this.next = next;
    }

    /** Whether every id was used: the connection may open no more streams. */
    public boolean exhausted() {
        return next < 0;
    }

    /** The id for the stream whose HEADERS leave now. */
    public int next() {
        if (exhausted()) {
            throw new IllegalStateException("stream ids exhausted");
        }
        int id = next;
        next += 2; // past 2^31-1 this wraps negative: exhausted
        return id;
    }

    /** Whether {@code id} is one of ours that was opened: our parity, and below the next id (or all of them used). */
    public boolean wasOpened(int id) {
        return id > 0 && (id & 1) == parity && (exhausted() || id < next);
    }
}
