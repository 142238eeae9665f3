package dev.shuttle.client.http2;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.http2.Http2ResponseHead;
import dev.shuttle.wire.http2.ReceiveWindows;
import dev.shuttle.wire.http2.ReceivedBody;
import dev.shuttle.wire.http2.SendWindows;
import java.io.IOException;
import java.util.concurrent.locks.Condition;

/**
 * One request's stream: what the reader delivered (heads, body bytes, trailers, the end, a reset) and what the
 * caller may send (its send window). Plain state: <b>every field is guarded by the connection's lock</b>, and
 * {@link #changed} (a condition of that lock) is signalled whenever something the caller waits for happens.
 *
 * <p>Lifecycle, from our side (RFC 9113 section 5.1, as a client sees it):
 * <pre>
 *   QUEUED --writer assigns an id and writes HEADERS--> OPEN
 *   OPEN --END_STREAM sent and received, or RST_STREAM either way--> CLOSED (removed from the connection's map)
 *   QUEUED --reset before its HEADERS left--> CLOSED, never sent (so never processed: safe to retry)
 * </pre>
 * A closed stream may still hold received body bytes: the body reads them from here after the connection forgot it.
 */
final class Http2Stream {
    enum State { QUEUED, OPEN, CLOSED }

    final Condition changed;
    State state = State.QUEUED;
    /** 0 until the writer assigns one, just before writing HEADERS. */
    int id;

    /** The final head, once it arrived. */
    Http2ResponseHead head;
    /** Interim (1xx) heads seen: the first byte of the response arrived even without a final head. */
    int interimHeads;
    /** Received body bytes not yet read, in the connection's chunks, and the content-length they must match. */
    final ReceivedBody body = new ReceivedBody();
    /** END_STREAM arrived (after the head, body and trailers). */
    boolean remoteEnd;
    /** A HEAD request: the response has no body whatever its head says. */
    boolean noBody;
    /** Trailer fields, or EMPTY. */
    Headers trailers = Headers.EMPTY;

    /** The frame with END_STREAM was handed to the socket by the writer. */
    boolean endWritten;
    /**
     * The caller waits on {@link #changed} for something on the sending side: the stream's id, send credit, or its
     * END_STREAM written. Those events signal only then, so a caller waiting for its response is not woken by them.
     */
    boolean sendWaiting;
    /** We sent (or queued) END_STREAM. */
    boolean localEnd;

    /** The reader changed this stream and signals {@link #changed} once it has handled what it read. */
    boolean wakePending;
    /** The caller's wait on {@link #changed} has a deadline and is in the connection's {@link WaitDeadlines}. */
    boolean waitListed;
    /** That wait's deadline. */
    long waitDeadline;
    /** Neighbours in {@link WaitDeadlines}' list. */
    Http2Stream waitPrev;
    Http2Stream waitNext;

    /** Why the stream ended abnormally (peer reset, connection failure, our abort), or null. */
    IOException failure;
    /** The failure says the server never processed the request (REFUSED_STREAM, GOAWAY above it, never sent). */
    boolean unprocessed;

    /** Our send window on this stream (null until it has an id); the peer's WINDOW_UPDATEs and SETTINGS change it. */
    SendWindows.Stream send;
    /** Our receive window on this stream (null until it has an id), and when to hand its credit back. */
    ReceiveWindows.Stream receive;

    Http2Stream(Condition changed) {
        this.changed = changed;
    }

    /** Something the sending side may wait for happened: wakes the caller if it waits for that (lock held). */
    void sendSideChanged() {
        if (sendWaiting) {
            changed.signalAll();
        }
    }

    boolean isClosed() {
        return state == State.CLOSED;
    }

    @Override
    public String toString() {
        return "Http2Stream[" + id + " " + state + (remoteEnd ? " remote-end" : "") + (localEnd ? " local-end" : "")
                + (failure != null ? " failed" : "") + "]";
    }
}
