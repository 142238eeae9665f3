package dev.shuttle.server;

import dev.shuttle.server.core.PathSegments;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * One request as the handler sees it. Owned by the handler's thread; not thread-safe.
 */
public interface Request {
    /** {@return the method token as sent, case-sensitive: {@code GET}} */
    String method();

    /** {@return the request target exactly as sent on the request line: {@code /search?q=a%20b}} */
    String target();

    /**
     * {@return the path of the target, still percent-encoded ({@code /search}); for an absolute-form target the path
     * after the authority ({@code /} when empty); {@code *} for the asterisk form; empty for the authority form
     * (CONNECT)}
     */
    String path();

    /** {@return the query of the target without the {@code ?}, still percent-encoded, or null when there is none} */
    String query();

    /**
     * {@return the path split at each {@code /} (after the leading one), then each segment percent-decoded as UTF-8: an
     * encoded slash stays inside its segment and {@code +} stays a plus ({@code /a%2Fb/c+d} gives {@code [a/b, c+d]})}
     * {@code /a/} gives {@code [a, ""]}, {@code /} gives {@code [""]}, {@code *} and the authority form give none.
     *
     * @throws IllegalArgumentException when an escape is malformed or the bytes are not UTF-8 (a router answers 400)
     */
    default List<String> pathSegments() {
        return PathSegments.decode(path());
    }

    /**
     * {@return the value of wildcard {@code {name}} (or {@code {name...}}) in the routing pattern that matched this
     * request, percent-decoded; null when the pattern has no such wildcard or no router chose the handler}
     *
     * @param name the wildcard's name, without braces or dots
     */
    default String pathValue(String name) {
        return null;
    }

    /**
     * {@return the query's parameters, percent-decoded per RFC 3986 ({@code +} is a plus); see {@link QueryParameters}}
     */
    default QueryParameters queryParameters() {
        return QueryParameters.parse(query());
    }

    /**
     * {@return the first value of query parameter {@code name}, decoded, or null when absent}
     *
     * @param name the decoded parameter name
     */
    default String queryParameter(String name) {
        return queryParameters().first(name);
    }

    /**
     * HTTP/1.0 or HTTP/1.1 as the client's request line says, or HTTP/2 for a request on an HTTP/2 stream.
     *
     * @return the protocol version of this request
     */
    HttpVersion version();

    /** {@return the request's header fields; for HTTP/2, without pseudo-header fields} */
    Headers headers();

    /**
     * Shortcut for {@code headers().first(name)}.
     *
     * @param name a field name, case-insensitive
     * @return the first value of that field, or null when absent
     */
    default String header(String name) {
        return headers().first(name);
    }

    /**
     * {@return the body, decoded from its framing (Content-Length or chunked; DATA frames on HTTP/2); empty when the
     * request has none} Reading it the first time sends {@code 100 Continue} when the client asked for it. A body
     * longer than {@link ServerLimits#maxRequestBodyBytes()} fails with an IOException (on HTTP/1.1 an
     * {@code Http1Exception} with status 413); a stall longer than {@link ServerTimeouts#bodyRead()} with a
     * {@code SocketTimeoutException}. Closing it does not close the connection; the server deals with any unread rest
     * after the handler returns.
     */
    InputStream body();

    /**
     * Reads the whole body (bounded by {@link ServerLimits#maxRequestBodyBytes()}).
     *
     * @return the body
     * @throws IOException when reading fails, the client went away, or the body is over the limit
     */
    default byte[] bodyBytes() throws IOException {
        return body().readAllBytes();
    }

    /** {@return the declared Content-Length, 0 without a body, or -1 when unknown (chunked, or HTTP/2 without one)} */
    long contentLength();

    /**
     * Trailer fields of a chunked HTTP/1.1 body or an HTTP/2 stream's trailing HEADERS, available once the body was
     * read to its end; empty otherwise.
     *
     * @return the trailer fields, possibly empty
     */
    Headers trailers();

    /** {@return the client's address (the proxy's, behind one)} */
    InetSocketAddress remoteAddress();

    /**
     * Fires when the client goes away while the handler runs: its HTTP/2 stream is reset or the connection closes;
     * on HTTP/1.1, once the request body has been read to its end, when the client closes the connection (seen as
     * it happens, even while the handler waits on something else). Blocked body reads and writes then fail with
     * {@link ClientGoneException}. {@link Cancellation#never()} for a request made without a server.
     *
     * @return this request's cancellation signal
     */
    default Cancellation cancellation() {
        return Cancellation.never();
    }

    /** {@return the connection this request arrived on} */
    ConnectionInfo connection();
}
