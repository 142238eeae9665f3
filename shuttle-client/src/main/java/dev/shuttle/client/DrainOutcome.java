package dev.shuttle.client;

/**
 * What became of a response body's connection when the caller closed the body. Exactly one outcome per response,
 * reported through {@link ClientTrace#bodyClosed} and counted in {@link ClientStats#drains()}.
 */
public enum DrainOutcome {
    /** The body had been read to its end: the connection went back to the pool, nothing was discarded. */
    COMPLETE,
    /**
     * The body had been read to its end, but its connection could not carry another request and was closed:
     * {@code Connection: close}, HTTP/1.0 without keep-alive, a close-delimited body, keep-alive off, or bytes the
     * server sent after the end of the body. Nothing was discarded.
     */
    COMPLETE_CLOSED,
    /** The rest of the body was already buffered or readable without blocking: drained inside {@code close()}. */
    REUSED_INLINE,
    /** Drained on a background virtual thread within the policy's caps, then handed to the pool or a waiter. */
    REUSED_ASYNC,
    /**
     * The background drain hit the byte cap before the end of the body (with hand-off, the cap's learned extension,
     * at most 16 times it): the connection was closed.
     */
    ABANDONED_BYTES,
    /**
     * The background drain hit the time cap before the end of the body, or, past the byte cap (hand-off only), ran
     * as long as a new connection to its origin takes: the connection was closed.
     */
    ABANDONED_TIME,
    /** Draining failed (truncated or malformed body, reset, client closed): the connection was closed. */
    ABANDONED_ERROR,
    /** The connection could not be reused anyway ({@code Connection: close}, close-delimited body, keep-alive off). */
    SKIPPED_CLOSE,
    /**
     * The declared Content-Length left more unread bytes than the policy's byte cap (with hand-off: more than can be
     * drained in the time a new connection to the origin takes, as its drains so far go), or (hand-off) the body is
     * chunked and this origin's last drain stopped at the byte cap or past it: closed, nothing read.
     */
    SKIPPED_LENGTH,
    /** The policy drains nothing ({@link DrainPolicy#none()}): closed at once, as Go 1.26 and earlier do. */
    SKIPPED_POLICY,
    /**
     * HTTP/2: the body was closed before its end, so its stream was reset (RST_STREAM with CANCEL) and the
     * flow-control credit of what had arrived was returned. Nothing is drained and the connection carries on with
     * its other streams: it survives, as {@link #reused()} says. {@code bytesDiscarded} counts the body bytes that had
     * arrived unread and were dropped. (An HTTP/2 body closed after all of it arrived is {@link #REUSED_INLINE}.)
     */
    RESET_STREAM;

    /**
     * {@return true when the connection survived: it went back to the pool (or to a waiting request), or carries on}
     */
    public boolean reused() {
        return this == COMPLETE || this == REUSED_INLINE || this == REUSED_ASYNC || this == RESET_STREAM;
    }
}
