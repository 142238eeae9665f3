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

    private final Kind kind;

    public HttpTimeoutException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
