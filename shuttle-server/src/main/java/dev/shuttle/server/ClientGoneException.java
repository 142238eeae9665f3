package dev.shuttle.server;

import java.io.IOException;

/**
 * The client of a request went away: it reset its HTTP/2 stream, closed its connection, or stopped reading until a
 * write failed. Thrown by the request body's reads and the response body's writes once that happened (also those
 * blocked at the time), and the cause of the request's {@link Cancellation}. An ordinary event, not a server fault:
 * the server logs handler failures it causes at DEBUG.
 */
public class ClientGoneException extends IOException {
    /**
     * The client went away.
     *
     * @param message what was going on, for logs
     */
    public ClientGoneException(String message) {
        super(message);
    }

    /**
     * The client went away.
     *
     * @param message what was going on, for logs
     * @param cause the I/O failure that showed it
     */
    public ClientGoneException(String message, Throwable cause) {
        super(message, cause);
    }
}
