package dev.shuttle.client;

import dev.shuttle.client.internal.UriEncoding;
import dev.shuttle.wire.FieldSyntax;
import dev.shuttle.wire.Headers;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * An immutable HTTP request: method, absolute {@code http} URI, headers, body, and per-request options. Build one with
 * {@link #newBuilder(URI)} or the {@link #get(String)} shortcut; a request may be sent any number of times.
 *
 * <p>The client adds {@code Host}, {@code User-Agent} (unless set), and the body's framing
 * ({@code Content-Length} or {@code Transfer-Encoding: chunked}); setting those framing headers here is rejected.
 */
public final class Request {
    /** RFC 9110 9.2.2's idempotent methods: sending them twice has the effect of sending them once. */
    private static final Set<String> IDEMPOTENT_METHODS = Set.of("GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE");

    private final String method;
    private final URI uri;
    private final Origin origin;
    private final Headers headers;
    private final BodyPublisher body;
    private final Boolean idempotent;
    private final ClientTrace trace;
    private final Duration timeout;
    private final Duration readTimeout;
    private final boolean expectContinue;

    private Request(Builder builder) {
        this.method = builder.method;
        this.uri = builder.uri;
        this.origin = builder.origin;
        this.headers = builder.headers == null ? Headers.EMPTY : builder.headers.build();
        this.body = builder.body;
        this.idempotent = builder.idempotent;
        this.trace = builder.trace;
        this.timeout = builder.timeout;
        this.readTimeout = builder.readTimeout;
        this.expectContinue = builder.expectContinue;
    }

    /**
     * {@return a builder of a GET to {@code uri}}
     *
     * @param uri an absolute http or https URI
     */
    public static Builder newBuilder(URI uri) {
        return new Builder(uri);
    }

    /**
     * {@return a builder of a GET to {@code uri}}
     *
     * @param uri an absolute http or https URI; see {@link Builder#uri(URI)} for characters beyond ASCII
     */
    public static Builder newBuilder(String uri) {
        return new Builder(URI.create(uri));
    }

    /**
     * {@return a GET to {@code uri}}
     *
     * @param uri an absolute http or https URI
     */
    public static Request get(String uri) {
        return newBuilder(uri).build();
    }

    /**
     * {@return a GET to {@code uri}}
     *
     * @param uri an absolute http or https URI
     */
    public static Request get(URI uri) {
        return newBuilder(uri).build();
    }

    /** {@return the method: {@code GET}, {@code POST}, ...} */
    public String method() {
        return method;
    }

    /** {@return the URI as sent: non-ASCII characters percent-encoded, the host in its ASCII form} */
    public URI uri() {
        return uri;
    }

    /** {@return the scheme, host and port the request goes to, which its pool key is made from} */
    public Origin origin() {
        return origin;
    }

    /** {@return the headers set by the caller (without the ones the client adds)} */
    public Headers headers() {
        return headers;
    }

    /** {@return the body; {@link BodyPublisher#none()} for none} */
    public BodyPublisher body() {
        return body;
    }

    /**
     * {@return whether sending this request twice is harmless, which allows one retry on a fresh connection when a
     * reused one fails before any response byte: as set by {@link Builder#idempotent(boolean)}, else true for GET,
     * HEAD, OPTIONS, PUT, DELETE, TRACE and any request carrying an {@code Idempotency-Key} header}
     */
    public boolean isIdempotent() {
        if (idempotent != null) {
            return idempotent;
        }
        return IDEMPOTENT_METHODS.contains(method) || headers.contains("Idempotency-Key");
    }

    /** {@return the per-request trace, or {@link ClientTrace#NONE}} */
    public ClientTrace trace() {
        return trace;
    }

    /**
     * {@return the whole-call timeout for this request, overriding the client's: null when not set (the client's
     * applies), {@link HttpClient#NO_TIMEOUT} for none}
     */
    public Duration timeout() {
        return timeout;
    }

    /**
     * {@return the read timeout for this request, overriding the client's: null when not set (the client's applies),
     * {@link HttpClient#NO_TIMEOUT} for none}
     */
    public Duration readTimeout() {
        return readTimeout;
    }

    /**
     * {@return whether the request waits for {@code 100 Continue} before sending its body ({@link
     * Builder#expectContinue})}
     */
    public boolean expectContinue() {
        return expectContinue;
    }

    /** {@return the origin-form target for the request line: raw path (or {@code /}) and raw query} */
    public String target() {
        String path = uri.getRawPath();
        if (path == null || path.isEmpty()) {
            path = "/";
        }
        String query = uri.getRawQuery();
        return query == null ? path : path + "?" + query;
    }

    /** {@return a builder holding this request's fields, to make a changed copy} */
    public Builder toBuilder() {
        Builder builder = new Builder(uri);
        builder.method = method;
        builder.headers = headers.isEmpty() ? null : headers.toBuilder();
        builder.body = body;
        builder.idempotent = idempotent;
        builder.trace = trace;
        builder.timeout = timeout;
        builder.readTimeout = readTimeout;
        builder.expectContinue = expectContinue;
        return builder;
    }

    @Override
    public String toString() {
        return method + " " + uri;
    }

    /**
     * Hand-written builder; only the URI is required (the method defaults to GET without a body). Headers come in a
     * pair that means the same as on the server's {@code Response}: {@link #header} replaces every field of the name,
     * {@link #addHeader} adds one more.
     */
    public static final class Builder {
        private URI uri;
        /** Of {@link #uri}, kept from its validation. */
        private Origin origin;
        private String method = "GET";
        /** Null until the first header is set: most requests carry none, and then build no list. */
        private Headers.Builder headers;
        private BodyPublisher body = BodyPublisher.none();
        private Boolean idempotent;
        private ClientTrace trace = ClientTrace.NONE;
        private Duration timeout;
        private Duration readTimeout;
        private boolean expectContinue;

        private Builder(URI uri) {
            uri(uri);
        }

        /**
         * An absolute {@code http} or {@code https} URI. Characters beyond ASCII in its path, query or fragment are
         * sent percent-encoded as UTF-8 (RFC 3986 3.1's IRI mapping, as browsers and the JDK's client do), and an
         * internationalised host name in its ASCII form (IDNA): {@link Request#uri()} is the URI as sent.
         *
         * @param uri the request's URI
         * @return this builder
         * @throws IllegalArgumentException for another scheme, a relative URI, or user info (credentials go in an
         *                                  {@code Authorization} header or an authenticator)
         */
        public Builder uri(URI uri) {
            URI ascii = UriEncoding.toAscii(Objects.requireNonNull(uri, "uri"));
            Origin checked = Origin.of(ascii); // validates now, not at send time
            if (ascii.getRawUserInfo() != null) {
                throw new IllegalArgumentException("user info in URIs is not supported: " + uri);
            }
            this.uri = ascii;
            this.origin = checked;
            return this;
        }

        /**
         * Appends {@code name=value} to the URI's query, both encoded as {@code application/x-www-form-urlencoded}
         * (UTF-8; a space becomes {@code +}), as Go's {@code url.Values} and OkHttp's {@code addQueryParameter} do.
         *
         * @param name the parameter name, not yet encoded
         * @param value the parameter value, not yet encoded
         * @return this builder
         */
        public Builder query(String name, String value) {
            uri = UriEncoding.withQueryParameter(uri, Objects.requireNonNull(name, "name"),
                    Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Sets the method (a token, case-sensitive) and body.
         *
         * @param method the method, such as {@code GET} or {@code PROPFIND}
         * @param body the body; {@link BodyPublisher#none()} for none
         * @return this builder
         */
        public Builder method(String method, BodyPublisher body) {
            if (!FieldSyntax.isToken(Objects.requireNonNull(method, "method"))) {
                throw new IllegalArgumentException("invalid method: " + method);
            }
            this.method = method;
            this.body = Objects.requireNonNull(body, "body");
            return this;
        }

        /**
         * Sets the method to GET, without a body (the default).
         *
         * @return this builder
         */
        public Builder GET() {
            return method("GET", BodyPublisher.none());
        }

        /**
         * Sets the method to HEAD, without a body.
         *
         * @return this builder
         */
        public Builder HEAD() {
            return method("HEAD", BodyPublisher.none());
        }

        /**
         * Sets the method to DELETE, without a body.
         *
         * @return this builder
         */
        public Builder DELETE() {
            return method("DELETE", BodyPublisher.none());
        }

        /**
         * Sets the method to POST.
         *
         * @param body the body
         * @return this builder
         */
        public Builder POST(BodyPublisher body) {
            return method("POST", body);
        }

        /**
         * Sets the method to PUT.
         *
         * @param body the body
         * @return this builder
         */
        public Builder PUT(BodyPublisher body) {
            return method("PUT", body);
        }

        /**
         * Sets the method to PATCH.
         *
         * @param body the body
         * @return this builder
         */
        public Builder PATCH(BodyPublisher body) {
            return method("PATCH", body);
        }

        /**
         * Sets the field {@code name} to {@code value}, replacing every field of that name (as the server's does).
         *
         * @param name the field name
         * @param value the field value
         * @return this builder
         */
        public Builder header(String name, String value) {
            checkSettable(name);
            fields().set(name, value);
            return this;
        }

        /**
         * Adds a field, keeping the others of that name (for fields that may repeat, such as {@code Accept}).
         *
         * @param name the field name
         * @param value the field value
         * @return this builder
         */
        public Builder addHeader(String name, String value) {
            checkSettable(name);
            fields().add(name, value);
            return this;
        }

        /**
         * Removes every field named {@code name}.
         *
         * @param name the field name
         * @return this builder
         */
        public Builder removeHeader(String name) {
            if (headers != null) {
                headers.remove(name);
            }
            return this;
        }

        private Headers.Builder fields() {
            if (headers == null) {
                headers = Headers.builder();
            }
            return headers;
        }

        /**
         * Overrides the idempotency judged from the method and {@code Idempotency-Key} (see {@link #isIdempotent}).
         *
         * @param idempotent whether sending the request twice is harmless
         * @return this builder
         */
        public Builder idempotent(boolean idempotent) {
            this.idempotent = idempotent;
            return this;
        }

        /**
         * A trace for this request only, in addition to the client-wide one.
         *
         * @param trace the request's own trace
         * @return this builder
         */
        public Builder trace(ClientTrace trace) {
            this.trace = Objects.requireNonNull(trace, "trace");
            return this;
        }

        /**
         * A whole-call timeout for this request (connection, request, response head and body), overriding the
         * client's; {@link HttpClient#NO_TIMEOUT} switches it off for this request (a long poll on a client with a
         * call timeout).
         *
         * @param timeout the whole-call timeout for this request
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            this.timeout = checkTimeout(timeout);
            return this;
        }

        /**
         * The longest wait for the next response byte, overriding the client's {@code readTimeout} for this request;
         * {@link HttpClient#NO_TIMEOUT} switches it off (long polls, server-sent events).
         *
         * @param timeout the read timeout for this request
         * @return this builder
         */
        public Builder readTimeout(Duration timeout) {
            this.readTimeout = checkTimeout(timeout);
            return this;
        }

        /**
         * Default false. True sends {@code Expect: 100-continue} with a request that has a body and sends the body
         * only once the server answered {@code 100 Continue}, or after the client's {@code expectContinueTimeout}
         * without an answer (RFC 9110 10.1.1; servers that ignore the expectation still get the body). A server
         * that answers with a final status instead (401, 413) gets no body: over HTTP/1.1 the connection is closed
         * after that response, over HTTP/2 the stream is reset when it ends. Large uploads to servers that may
         * refuse them cost a round trip instead of the upload.
         *
         * @param expectContinue whether to wait for {@code 100 Continue} before the body
         * @return this builder
         */
        public Builder expectContinue(boolean expectContinue) {
            this.expectContinue = expectContinue;
            return this;
        }

        /** {@return the request} */
        public Request build() {
            return new Request(this);
        }

        private static Duration checkTimeout(Duration timeout) {
            if (Objects.requireNonNull(timeout, "timeout (NO_TIMEOUT for none)").isNegative()) {
                throw new IllegalArgumentException("timeout must be positive, or NO_TIMEOUT for none: " + timeout);
            }
            return timeout;
        }

        private static void checkSettable(String name) {
            if (name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding")
                    || name.equalsIgnoreCase("Host")) {
                throw new IllegalArgumentException(name + " is set by the client from the URI and the body");
            }
        }
    }
}
