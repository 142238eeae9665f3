package dev.shuttle.mockserver;

import dev.shuttle.wire.Headers;

/**
 * A request as the mock server received it, with where it arrived: which connection, and which request on that
 * connection it was ({@link #sequenceOnConnection()} 1 for the first, so {@code > 1} means the client reused the
 * connection).
 *
 * @param method               the method token
 * @param target               the request target as sent ({@code /path?query}; for HTTP/2 the {@code :path})
 * @param path                 the path of the target, still percent-encoded
 * @param query                the query without {@code ?}, or null
 * @param protocol             {@code HTTP/1.0}, {@code HTTP/1.1} or {@code HTTP/2}
 * @param headers              the request's fields
 * @param body                 the request body, read whole before dispatch
 * @param connectionId         the connection's id, 1 for the server's first, in accept order
 * @param sequenceOnConnection 1 for a connection's first request, 2 for its second...
 * @param tls                  whether the connection is TLS
 */
public record RecordedRequest(String method, String target, String path, String query, String protocol,
                              Headers headers, byte[] body, long connectionId, long sequenceOnConnection,
                              boolean tls) {
    /**
     * Shortcut for {@code headers().first(name)}.
     *
     * @param name a field name, case-insensitive
     * @return the first value of that field, or null when absent
     */
    public String header(String name) {
        return headers.first(name);
    }

    /** {@return whether the request came on a connection that had carried an earlier one} */
    public boolean reusedConnection() {
        return sequenceOnConnection > 1;
    }

    @Override
    public String toString() {
        return method + " " + target + " " + protocol + " (connection " + connectionId + ", request "
                + sequenceOnConnection + ")";
    }
}
