package dev.shuttle.client;

import java.net.SocketTimeoutException;

/**
 * A configured timeout expired. Extends {@link SocketTimeoutException}, so code that already catches socket timeouts
 * keeps working; {@link #kind()} says which limit it was.
 */
public final class HttpTimeoutException extends SocketTimeoutException {
    /** Which of {@link HttpClient.Builder}'s timeouts expired. */
    public enum Kind {
        /** {@link HttpClient.Builder#connectTimeout}: the TCP connection was not established in time. */
        CONNECT,
        /** {@link HttpClient.Builder#tlsHandshakeTimeout}: the TLS handshake did not finish in time. */
        TLS_HANDSHAKE,
        /** {@link HttpClient.Builder#responseHeaderTimeout}: the response head did not arrive in time. */
        RESPONSE_HEADERS,
        /** {@link HttpClient.Builder#readTimeout}: no byte arrived for that long while reading. */
        READ,
        /**
         * {@link HttpClient.Builder#writeTimeout}: sending the request made no progress for that long (a blocked
         * write; on HTTP/2 also no flow-control window).
         */
        WRITE,
        /** {@link HttpClient.Builder#callTimeout} (or the request's own): the whole call took too long. */
        CALL
    }

    /** Which limit expired. */
    private final Kind kind;

    /**
     * A timeout of {@code kind}.
     *
     * @param kind which limit expired
     * @param message what timed out, naming the call
     */
    public HttpTimeoutException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    /** {@return which limit expired} */
    public Kind kind() {
        return kind;
    }
}
