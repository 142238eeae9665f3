package dev.shuttle.wire.http1;

import java.io.IOException;

/**
 * Malformed or over-limit HTTP/1 input. A server answers with {@link #status()} and closes the connection; a client
 * fails the exchange and closes the connection. Either way only this connection is affected.
 */
public final class Http1Exception extends IOException {
    private final int status;

    /**
     * @param status the status a server should answer with: 400 (malformed), 408, 413 (body too large),
     *               414 (request line too long), 431 (head too large), 501 (unknown transfer coding)
     */
    public Http1Exception(int status, String message) {
        super(message);
        this.status = status;
    }

    public static Http1Exception badRequest(String message) {
        return new Http1Exception(400, message);
    }

    /** The status code a server should answer with before closing. */
    public int status() {
        return status;
    }
}
