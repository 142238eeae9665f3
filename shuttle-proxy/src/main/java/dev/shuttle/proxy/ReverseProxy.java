package dev.shuttle.proxy;

import dev.shuttle.client.ClientStats;
import dev.shuttle.client.DrainPolicy;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.server.Cancellation;
import dev.shuttle.server.ClientGoneException;
import dev.shuttle.server.Handler;
import dev.shuttle.server.Request;
import dev.shuttle.server.Response;
import dev.shuttle.wire.Headers;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A reverse proxy as a {@link Handler}: each request goes to one upstream origin on Shuttle's {@link HttpClient},
 * and its answer comes back, both bodies streamed with back-pressure (a blocking copy each way). Hop-by-hop fields are
 * dropped in both directions, the forwarding fields added ({@code X-Forwarded-For}, {@code -Host}, {@code -Proto},
 * {@code Forwarded}), trailers passed on. Either side may speak HTTP/1.1 or HTTP/2: the downstream protocol is the
 * server's business, the upstream one the client's ({@code http2PriorKnowledge} for h2c, ALPN over TLS).
 *
 * <p>Failures: an upstream that cannot be reached or fails before its head is answered 502; one that times out 504
 * (the client's timeouts; by default a 30 s response-header timeout). A downstream client that goes away before the
 * upstream answered cancels the upstream exchange; one that goes away mid-body has the upstream response
 * <em>closed</em>, not aborted, so the client's drain policy keeps the upstream connection when the rest of the body
 * is small enough to read: the point of this proxy, where nginx and Go's proxy close it. An upstream that fails
 * mid-body ends the downstream response visibly (reset or close, as the server does for any handler failure).
 *
 * <p>Thread-safe; one per upstream origin, usually behind a {@code Router}.
 */
public final class ReverseProxy implements Handler, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ReverseProxy.class.getName());
    private static final int COPY_BYTES = 16 * 1024;

    /**
     * The drain policy of the client a proxy makes: the default's inline drain and hand-off, with caps for an upstream
     * that is near, 4 MiB and 100 ms. Go 1.27's 256 KiB and 50 ms are for a client far from its server; a proxy's
     * upstream usually sits in the same network, where what is left of an abandoned response drains in a millisecond
     * or two, less than a new upstream connection and its handshake cost, and keeping upstream connections is what a
     * proxy is for (nginx keeps an upstream pool for it, then closes one per client abort).
     */
    public static final DrainPolicy UPSTREAM_DRAIN = new DrainPolicy(4 << 20, Duration.ofMillis(100), true, true);

    private final URI upstream;
    private final HttpClient client;
    private final boolean ownsClient;
    private final UpstreamRequests requests;

    private ReverseProxy(Builder builder) {
        this.upstream = builder.upstream;
        this.ownsClient = builder.client == null;
        this.client = ownsClient ? defaultClient() : builder.client;
        this.requests = new UpstreamRequests(builder.upstream, builder.forwardedHeaders);
    }

    /**
     * {@return a proxy to {@code upstream} ({@code http://host:port} with an optional base path)}
     *
     * @param upstream the upstream's base URI
     */
    public static Builder to(URI upstream) {
        return new Builder(upstream);
    }

    /**
     * {@return a builder of a proxy to {@code upstream}}
     *
     * @param upstream {@code http://host:port} or {@code https://...}, with an optional base path
     */
    public static Builder to(String upstream) {
        return to(URI.create(upstream));
    }

    /**
     * {@return the builder of the client a proxy makes when given none, for a caller that wants it with one more
     * option: every client default but these} {@link #UPSTREAM_DRAIN}; no read timeout, since a long poll or an event
     * stream may stay silent (the downstream client's going away ends it instead); a 30 s response-header timeout,
     * nginx's {@code proxy_read_timeout} for the head; no User-Agent of its own, so the downstream's passes unchanged.
     */
    public static HttpClient.Builder clientBuilder() {
        return HttpClient.builder()
                .drainPolicy(UPSTREAM_DRAIN)
                .readTimeout(HttpClient.NO_TIMEOUT)
                .responseHeaderTimeout(Duration.ofSeconds(30))
                .userAgent(null);
    }

    private static HttpClient defaultClient() {
        return clientBuilder().build();
    }

    /** {@return the proxy's client's counters: connections opened to the upstream, reuse, drains} */
    public ClientStats stats() {
        return client.stats();
    }

    /** {@return the upstream's base URI} */
    public URI upstream() {
        return upstream;
    }

    @Override
    public void handle(Request request, Response response) throws IOException {
        dev.shuttle.client.Request outgoing;
        try {
            outgoing = requests.toUpstream(request);
        } catch (IllegalArgumentException e) {
            response.send(400, "400 bad request: " + e.getMessage() + "\n");
            return;
        }
        dev.shuttle.client.Response answer = exchange(request, outgoing, response);
        if (answer == null) {
            return; // answered with 502 or 504
        }
        try (answer) { // closed however this ends: drained within the client's policy when unread
            relay(request, answer, response);
        }
    }

    /** Sends upstream; null after answering 502/504 itself. The downstream going away meanwhile cancels it. */
    private dev.shuttle.client.Response exchange(Request request, dev.shuttle.client.Request outgoing,
                                                 Response response) throws IOException {
        Cancellation downstreamGone = request.cancellation();
        CompletableFuture<dev.shuttle.client.Response> pending = client.sendAsync(outgoing);
        AutoCloseable cancel = downstreamGone.onCancel(() -> pending.cancel(true));
        try {
            return pending.get();
        } catch (CancellationException e) {
            throw new ClientGoneException("the client went away before " + upstream + " answered");
        } catch (ExecutionException e) {
            Throwable failure = e.getCause();
            if (failure instanceof HttpTimeoutException timeout) {
                LOG.log(Level.WARNING, "upstream {0} timed out: {1}", upstream, timeout.getMessage());
                response.send(504, "504 gateway timeout: the upstream did not answer in time\n");
                return null;
            }
            if (failure instanceof IOException || failure instanceof UncheckedIOException) {
                LOG.log(Level.WARNING, "upstream {0} failed: {1}", upstream, failure.toString());
                response.send(502, "502 bad gateway: the upstream failed\n");
                return null;
            }
            if (failure instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException("the upstream exchange failed", failure);
        } catch (InterruptedException e) {
            pending.cancel(true);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for " + upstream, e);
        } finally {
            try {
                cancel.close();
            } catch (Exception ignored) {
                // forgetting an action cannot fail
            }
        }
    }

    /** The upstream's head, body and trailers onto the downstream response. */
    private static void relay(Request request, dev.shuttle.client.Response answer, Response response)
            throws IOException {
        response.status(answer.status());
        Headers headers = answer.headers();
        Set<String> hopByHop = HopByHop.names(headers);
        long length = -1;
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.name(i);
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.equals("content-length")) {
                length = parseLength(headers.value(i));
            } else if (!hopByHop.contains(lower) && !lower.startsWith(":")) {
                response.addHeader(name, headers.value(i));
            }
        }
        String trailerNames = headers.first("Trailer");
        if (trailerNames != null) {
            response.header("Trailer", trailerNames); // announced again, and chunked framing to carry them
            response.trailers(Headers.EMPTY);
        } else if (length >= 0) {
            response.contentLength(length);
        }
        boolean noBody = request.method().equals("HEAD") || answer.status() == 204 || answer.status() == 304;
        if (noBody) {
            return;
        }
        copyBody(answer.body(), response);
        Headers trailers = answer.trailers();
        if (!trailers.isEmpty()) {
            response.trailers(trailers);
        }
    }

    /** Streams the body, flushing whenever the upstream has nothing more at hand, so streams stay streams. */
    private static void copyBody(InputStream in, Response response) throws IOException {
        OutputStream out = response.body();
        byte[] buffer = new byte[COPY_BYTES];
        for (int n; (n = in.read(buffer)) >= 0; ) {
            out.write(buffer, 0, n);
            if (in.available() == 0) {
                response.flush();
            }
        }
    }

    private static long parseLength(String value) {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return -1; // the client validated the framing already; a stray value is left to chunking
        }
    }

    /** Closes the client the proxy made for itself (a client given to it stays its owner's). */
    @Override
    public void close() {
        if (ownsClient) {
            client.close();
        }
    }

    /** Hand-written builder; only the upstream is required. */
    public static final class Builder {
        private final URI upstream;
        private HttpClient client;
        private boolean forwardedHeaders = true;

        private Builder(URI upstream) {
            Objects.requireNonNull(upstream, "upstream");
            String scheme = upstream.getScheme();
            if (!"http".equals(scheme) && !"https".equals(scheme) || upstream.getRawAuthority() == null) {
                throw new IllegalArgumentException("the upstream must be an http or https URI: " + upstream);
            }
            this.upstream = upstream;
        }

        /**
         * Default: a client of the proxy's own (no read timeout, a 30 s response-header timeout, no User-Agent),
         * closed with the proxy. Pass one to choose the drain policy, pool, TLS or h2c
         * ({@code http2PriorKnowledge}); it stays the caller's to close.
         *
         * @param client the client the proxy forwards with
         * @return this builder
         */
        public Builder client(HttpClient client) {
            this.client = Objects.requireNonNull(client, "client");
            return this;
        }

        /**
         * Default true: add {@code X-Forwarded-For} (appended), {@code X-Forwarded-Host}, {@code X-Forwarded-Proto}
         * and {@code Forwarded} (appended), as Go's proxy and nginx setups do. False passes the client's own, if
         * any, untouched.
         *
         * @param add whether forwarding fields are added
         * @return this builder
         */
        public Builder forwardedHeaders(boolean add) {
            this.forwardedHeaders = add;
            return this;
        }

        /** {@return the proxy, a {@code Handler}; close it to close a client it made} */
        public ReverseProxy build() {
            return new ReverseProxy(this);
        }
    }
}
