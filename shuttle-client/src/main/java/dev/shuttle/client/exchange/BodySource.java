package dev.shuttle.client.exchange;

import dev.shuttle.wire.Headers;
import java.io.IOException;
import java.net.URI;

/**
 * A response body's state as the caller's stream ({@link ResponseBody}) sees it; each protocol implements it. The
 * rules: reads may block; {@link #close()} never blocks on the network and may come from any thread, even during a
 * read; the body settles its lease (HTTP/1.1) or stream (HTTP/2) exactly once.
 */
public interface BodySource {
    int read(byte[] b, int off, int len) throws IOException;

    /** Body bytes readable without blocking, as far as this side knows. */
    int available();

    /** Reads to the end, discarding (blocking, no cap). */
    void skipToEnd() throws IOException;

    void close();

    /**
     * Cancels the call (its timeout, a cancelled future): closes as {@link #close()} does, from any thread, and later
     * reads fail with {@code reason}. Default: just close.
     */
    default void cancel(IOException reason) {
        close();
    }

    /** The body was read to its end. */
    boolean isComplete();

    /** Trailer fields, once complete. */
    Headers trailers();

    /** Body bytes still to come per the declared length; 0 at the end; -1 when unknown or closed. */
    long remainingLength();

    /** The declared length, or -1. */
    long declaredLength();

    /**
     * The leak guard's action: the response became unreachable unclosed (or was closed: the guard runs on close too).
     * The request is named by its parts, put together only when a leak is reported.
     */
    void leaked(String method, URI uri);
}
