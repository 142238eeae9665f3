package dev.shuttle.client;

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

    private Request(Builder builder) {
        this.method = builder.method;
        this.uri = builder.uri;
        this.origin = builder.origin;
        this.headers = builder.headers == null ? Headers.EMPTY : builder.headers.build();
        this.body = builder.body;
        this.idempotent = builder.idempotent;
        this.trace = builder.trace;
        this.timeout = builder.timeout;
    }

    public static Builder newBuilder(URI uri) {
        return new Builder(uri);
    }

    public static Builder newBuilder(String uri) {
        return new Builder(URI.create(uri));
    }

    public static Request get(String uri) {
        return newBuilder(uri).build();
    }

    public static Request get(URI uri) {
        return newBuilder(uri).build();
    }

    public String method() {
        return method;
    }

    public URI uri() {
        return uri;
    }

    public Origin origin() {
        return origin;
    }

    /** The headers set by the caller (without the ones the client adds). */
    public Headers headers() {
        return headers;
    }

    public BodyPublisher body() {
        return body;
    }

    /**
     * Whether sending this request twice is harmless, which allows one retry on a fresh connection when a reused one
     * fails before any response byte: as set by {@link Builder#idempotent(boolean)}, else true for GET, HEAD,
     * OPTIONS, PUT, DELETE, TRACE and any request carrying an {@code Idempotency-Key} header.
     */
    public boolean isIdempotent() {
        if (idempotent != null) {
            return idempotent;
        }
        return IDEMPOTENT_METHODS.contains(method) || headers.contains("Idempotency-Key");
    }

    /** The per-request trace, or {@link ClientTrace#NONE}. */
    public ClientTrace trace() {
        return trace;
    }

    /** The whole-call timeout for this request, overriding the client's; null when not set. */
    public Duration timeout() {
        return timeout;
    }

    /** The origin-form target for the request line: raw path (or {@code /}) and raw query. */
    public String target() {
        String path = uri.getRawPath();
        if (path == null || path.isEmpty()) {
            path = "/";
        }
        String query = uri.getRawQuery();
        return query == null ? path : path + "?" + query;
    }

    public Builder toBuilder() {
        Builder builder = new Builder(uri);
        builder.method = method;
        builder.headers = headers.isEmpty() ? null : headers.toBuilder();
        builder.body = body;
        builder.idempotent = idempotent;
        builder.trace = trace;
        builder.timeout = timeout;
        return builder;
    }

    @Override
    public String toString() {
        return method + " " + uri;
    }

    /** Hand-written builder; only the URI is required (the method defaults to GET without a body). */
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

        private Builder(URI uri) {
            uri(uri);
        }

        public Builder uri(URI uri) {
            Origin checked = Origin.of(Objects.requireNonNull(uri, "uri")); // validates now, not at send time
            if (uri.getRawUserInfo() != null) {
                throw new IllegalArgumentException("user info in URIs is not supported: " + uri);
            }
            this.uri = uri;
            this.origin = checked;
            return this;
        }

        /** Sets the method (a token, case-sensitive) and body. */
        public Builder method(String method, BodyPublisher body) {
            if (!FieldSyntax.isToken(Objects.requireNonNull(method, "method"))) {
                throw new IllegalArgumentException("invalid method: " + method);
            }
            this.method = method;
            this.body = Objects.requireNonNull(body, "body");
            return this;
        }

        public Builder GET() {
            return method("GET", BodyPublisher.none());
        }

        public Builder HEAD() {
            return method("HEAD", BodyPublisher.none());
        }

        public Builder DELETE() {
            return method("DELETE", BodyPublisher.none());
        }

        public Builder POST(BodyPublisher body) {
            return method("POST", body);
        }

        public Builder PUT(BodyPublisher body) {
            return method("PUT", body);
        }

        /** Adds a header field, keeping others of that name. */
        public Builder header(String name, String value) {
            checkSettable(name);
            fields().add(name, value);
            return this;
        }

        /** Replaces every field named {@code name}. */
        public Builder setHeader(String name, String value) {
            checkSettable(name);
            fields().set(name, value);
            return this;
        }

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

        /** Overrides the idempotency judged from the method and {@code Idempotency-Key} (see {@link #isIdempotent}). */
        public Builder idempotent(boolean idempotent) {
            this.idempotent = idempotent;
            return this;
        }

        /** A trace for this request only, in addition to the client-wide one. */
        public Builder trace(ClientTrace trace) {
            this.trace = Objects.requireNonNull(trace, "trace");
            return this;
        }

        /** A whole-call timeout for this request (connection, request, response head and body), overriding the client's. */
        public Builder timeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive: " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        public Request build() {
            return new Request(this);
        }

        private static void checkSettable(String name) {
            if (name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding")
                    || name.equalsIgnoreCase("Host")) {
                throw new IllegalArgumentException(name + " is set by the client from the URI and the body");
            }
        }
    }
}
