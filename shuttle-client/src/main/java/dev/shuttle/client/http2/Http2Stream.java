package dev.shuttle.client.http2;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.http2.Http2ResponseHead;
import dev.shuttle.wire.http2.Http2Window;
import dev.shuttle.wire.http2.WindowUpdatePolicy;
import java.io.IOException;
import java.util.ArrayDeque;
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
    /**
     * Received body bytes not yet read, in chunks of the connection's {@link ChunkPool}: the oldest here, or null
     * when none is held; all but the last chunk are full.
     */
    private byte[] firstChunk;
    /** The chunks after {@link #firstChunk}, oldest first; null until a body needs more than one. */
    private ArrayDeque<byte[]> moreChunks;
    /** Offset of the first unread byte in {@link #firstChunk}. */
    private int readOffset;
    /** Bytes used in the last chunk. */
    private int writeOffset;
    /** Bytes in {@code inbound} not yet read. */
    long buffered;
    /** Body bytes received in all. */
    long received;
    /** END_STREAM arrived (after the head, body and trailers). */
    boolean remoteEnd;
    /** The head's content-length the body must match, or -1. Set with the head; the body reads it without the lock. */
    long declaredLength = -1;
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

    /** Our send window on this stream; the peer's WINDOW_UPDATEs and SETTINGS change it. */
    Http2Window sendWindow;
    /** Our receive window, and when to hand its credit back. */
    Http2Window receiveWindow;
    WindowUpdatePolicy receivePolicy;

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

    /** Keeps {@code len} received body bytes from {@code src}, copied into chunks taken from {@code pool}. */
    void append(byte[] src, int off, int len, ChunkPool pool) {
        buffered += len;
        while (len > 0) {
            byte[] last;
            if (firstChunk == null) {
                last = firstChunk = pool.take();
                writeOffset = 0;
            } else if (writeOffset == ChunkPool.CHUNK_BYTES) {
                if (moreChunks == null) {
                    moreChunks = new ArrayDeque<>(4);
                }
                last = pool.take();
                moreChunks.addLast(last);
                writeOffset = 0;
            } else {
                last = onlyChunk() ? firstChunk : moreChunks.peekLast();
            }
            int n = Math.min(len, ChunkPool.CHUNK_BYTES - writeOffset);
            System.arraycopy(src, off, last, writeOffset, n);
            writeOffset += n;
            off += n;
            len -= n;
        }
    }

    private boolean onlyChunk() {
        return moreChunks == null || moreChunks.isEmpty();
    }

    /** Where the unread bytes of {@link #firstChunk} end. */
    private int firstEnd() {
        return onlyChunk() ? writeOffset : ChunkPool.CHUNK_BYTES;
    }

    /** {@link #firstChunk} was read to its end: back to {@code pool}, the next one moves up. */
    private void dropFirst(ChunkPool pool) {
        pool.give(firstChunk);
        firstChunk = onlyChunk() ? null : moreChunks.pollFirst();
        readOffset = 0;
    }

    /**
     * Copies up to {@code len} unread bytes into {@code b}, giving each chunk read to its end back to {@code pool};
     * returns how many (0 when none are buffered).
     */
    int take(byte[] b, int off, int len, ChunkPool pool) {
        int copied = 0;
        while (copied < len && buffered > 0) {
            int end = firstEnd();
            int n = Math.min(len - copied, end - readOffset);
            System.arraycopy(firstChunk, readOffset, b, off + copied, n);
            copied += n;
            readOffset += n;
            buffered -= n;
            if (readOffset == end) {
                dropFirst(pool);
            }
        }
        return copied;
    }

    /** As {@link #take} without copying: drops up to {@code len} unread bytes; returns how many. */
    int skip(int len, ChunkPool pool) {
        int skipped = 0;
        while (skipped < len && buffered > 0) {
            int end = firstEnd();
            int n = Math.min(len - skipped, end - readOffset);
            skipped += n;
            readOffset += n;
            buffered -= n;
            if (readOffset == end) {
                dropFirst(pool);
            }
        }
        return skipped;
    }

    /** Drops every unread byte, giving the chunks back to {@code pool}; returns how many bytes there were. */
    long discard(ChunkPool pool) {
        long dropped = buffered;
        while (firstChunk != null) {
            dropFirst(pool);
        }
        buffered = 0;
        return dropped;
    }

    @Override
    public String toString() {
        return "Http2Stream[" + id + " " + state + (remoteEnd ? " remote-end" : "") + (localEnd ? " local-end" : "")
                + (failure != null ? " failed" : "") + "]";
    }
}
