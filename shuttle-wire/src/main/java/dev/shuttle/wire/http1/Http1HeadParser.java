package dev.shuttle.wire.http1;

import java.nio.ByteBuffer;

/**
 * Incremental parser of HTTP/1 request and response heads (RFC 9112 sections 2-5). Feed it bytes as they arrive; it
 * consumes complete lines from the buffer and keeps partial state inside, so any split of the input parses the same
 * and no byte is scanned twice. One parser per connection, reused for each head via {@link #reset()}; not
 * thread-safe.
 *
 * <p>Strict where request smuggling needs it: obs-fold, whitespace between a field name and its colon, NUL, bare CR
 * or bare LF inside a line, and invalid tokens are rejected with 400; a too-long request line with 414; a too-large
 * head or too many fields with 431. An HTTP/1.1 request must carry exactly one Host (400 otherwise). Empty lines
 * before a request line are skipped (RFC 9112 2.2), a bounded number of them.
 */
public final class Http1HeadParser {
    private final Http1Limits limits;

    public Http1HeadParser(Http1Limits limits) {
        this.limits = limits;
    }

    /**
     * Parses a request head from {@code input}, consuming the bytes it uses.
     *
     * @return the head, or null when {@code input} ran out first (call again with more bytes)
     */
    public RequestHead parseRequest(ByteBuffer input) throws Http1Exception {
        throw new UnsupportedOperationException("TODO(wire)");
    }

    /**
     * Parses a response head from {@code input}, consuming the bytes it uses. Interim (1xx) heads are returned like
     * any other; the caller skips them.
     *
     * @return the head, or null when {@code input} ran out first
     */
    public ResponseHead parseResponse(ByteBuffer input) throws Http1Exception {
        throw new UnsupportedOperationException("TODO(wire)");
    }

    /** True when some bytes of a head have been consumed but the head is not complete yet. */
    public boolean inProgress() {
        throw new UnsupportedOperationException("TODO(wire)");
    }

    /** Forgets any partial head, ready for the next message. */
    public void reset() {
        throw new UnsupportedOperationException("TODO(wire)");
    }
}
