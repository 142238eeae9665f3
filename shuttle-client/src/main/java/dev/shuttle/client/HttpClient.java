package dev.shuttle.client;

import dev.shuttle.client.internal.ClientSettings;
import dev.shuttle.client.internal.Leaks;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.lang.ref.Cleaner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * An HTTP/1.1 and HTTP/2 client, plaintext and TLS, with a connection pool. {@code https} offers HTTP/2 in ALPN and
 * falls back to HTTP/1.1 when the server does not pick it; {@code http} speaks HTTP/1.1 unless
 * {@link Builder#http2PriorKnowledge} is set. Requests, responses, traces and stats are the same for both. Build one, share it everywhere, close it at shutdown: it is thread-safe
 * and meant to be long-lived (a client per call pays a new connection per call).
 *
 * <pre>{@code
 * try (HttpClient client = HttpClient.create();
 *      Response response = client.send(Request.get("http://localhost:8080/status"))) {
 *     if (response.status() != 200) { ... }   // closing an unread body still keeps the connection
 * }
 * }</pre>
 *
 * <p>{@link #send} blocks; call it from virtual threads for concurrency. {@link #sendAsync} is a convenience that runs
 * {@code send} on a virtual thread. Closing the client closes idle and draining connections at once; responses still
 * open keep their connection until they are closed, which then closes it. A client that becomes unreachable unclosed
 * is logged and its idle connections closed.
 */
public final class HttpClient implements AutoCloseable {
    /**
     * Pass to any timeout of the {@link Builder} to switch it off: for long polls, server-sent events and other
     * responses that may legitimately stay silent for longer than the defaults allow. Equal to {@link Duration#ZERO};
     * {@code null} means the same.
     */
    public static final Duration NO_TIMEOUT = Duration.ZERO;

    private final ClientCore core;
    private final Cleaner.Cleanable leakGuard;

    private HttpClient(ClientSettings settings) {
        this.core = new ClientCore(settings);
        this.leakGuard = Leaks.register(this, core.leakAction());
    }

    /** {@return a client with every default} */
    public static HttpClient create() {
        return builder().build();
    }

    /** {@return a builder with every default} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Sends the request and returns once the response head has arrived; the body streams from the returned response,
     * which must be closed. An idempotent request that fails on a reused connection before any response byte arrived
     * is sent once more on a new connection (see {@link Request#isIdempotent()}).
     *
     * @param request the request; its body is sent as the request is written
     * @return the open response: read its body or not, then close it
     * @throws HttpTimeoutException     when a configured timeout expires
     * @throws InterruptedIOException   when the calling thread is interrupted (the connection is closed, not pooled)
     * @throws IOException              on connection failures and malformed responses
     * @throws IllegalStateException    when the client is closed
     */
    public Response send(Request request) throws IOException {
        Objects.requireNonNull(request, "request");
        return core.send(request);
    }

    /**
     * Sends the request, reads the body with {@code handler} and closes the response: one call, nothing to close.
     *
     * <pre>{@code
     * CompletedResponse<String> page = client.send(Request.get(uri), BodyHandler.ofString(1 << 20));
     * if (page.isSuccessful()) { use(page.body()); }
     * }</pre>
     *
     * @param <T> what the body becomes
     * @param request the request
     * @param handler reads the body into the value
     * @return status, headers and the handler's value; the response is already closed
     * @throws IOException as {@link #send(Request)}, and whatever the handler throws (the response is closed)
     */
    public <T> CompletedResponse<T> send(Request request, BodyHandler<T> handler) throws IOException {
        Objects.requireNonNull(handler, "handler");
        try (Response response = send(request)) {
            T body = handler.read(response);
            return CompletedResponse.of(response, body);
        }
    }

    /**
     * Runs {@link #send(Request)} on a new virtual thread. Cancelling the future interrupts that thread, which closes
     * the connection of an exchange in progress; a response that arrives after cancellation is closed. The response
     * must be closed: {@link #sendAsync(Request, BodyHandler)} returns one that needs no closing.
     *
     * @param request the request
     * @return the future response; the caller closes it
     */
    public CompletableFuture<Response> sendAsync(Request request) {
        Objects.requireNonNull(request, "request");
        return core.sendAsync(() -> send(request), Response::close);
    }

    /**
     * Runs {@link #send(Request, BodyHandler)} on a new virtual thread: the future's value holds no connection, so
     * nothing needs closing whatever happens to it. Cancelling the future interrupts the call; the connection of
     * a cancelled HTTP/1.1 call whose body was being read goes to the drain policy as a closed response's would.
     *
     * <pre>{@code
     * client.sendAsync(Request.get(uri), BodyHandler.ofString()).thenAccept(page -> use(page.body()));
     * }</pre>
     *
     * @param <T> what the body becomes
     * @param request the request
     * @param handler reads the body into the value, on the call's virtual thread
     * @return the future completed response
     */
    public <T> CompletableFuture<CompletedResponse<T>> sendAsync(Request request, BodyHandler<T> handler) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(handler, "handler");
        return core.sendAsync(new AsyncBodyCall<>(this, request, handler), unused -> {
        });
    }

    /** {@return a snapshot of this client's counters} */
    public ClientStats stats() {
        return core.stats();
    }

    /**
     * Closes idle and draining connections and refuses new requests. Open responses keep working; their connections
     * close when they do. Idempotent.
     */
    @Override
    public void close() {
        core.close();
        leakGuard.clean();
    }

    /** Access for this module's tests (package-private: not part of the API). */
    ClientCore core() {
        return core;
    }

    /**
     * Hand-written builder; every option has a working default, stated with the reason for it. The defaults never
     * let a call hang forever on a silent server: connect, read and write are bounded by 10 s each, as OkHttp's are.
     * Switch one off with {@link #NO_TIMEOUT} (for long polls and server-sent events, the read timeout).
     */
    public static final class Builder extends TlsAndHttp2Options {
        /** OkHttp's connect, read and write default: a value a decade of Android and JVM use found workable. */
        private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

        private Duration connectTimeout = DEFAULT_TIMEOUT;
        private Duration responseHeaderTimeout;
        private Duration readTimeout = DEFAULT_TIMEOUT;
        private Duration writeTimeout = DEFAULT_TIMEOUT;
        private Duration callTimeout;
        private PoolConfig pool = PoolConfig.defaults();
        private DrainPolicy drainPolicy = DrainPolicy.defaults();
        private boolean keepAlive = true;
        private ClientTrace trace = ClientTrace.NONE;
        private ClientTrace.Factory traceFactory;
        private ResponseLimits limits = ResponseLimits.defaults();
        private String userAgent = "shuttle/0.1";
        private LongSupplier nanoClock = System::nanoTime;
        private RedirectPolicy redirectPolicy = RedirectPolicy.defaults();
        private boolean compression = true;
        private CookieHandler cookieHandler;
        private Authenticator authenticator;
        private Authenticator proxyAuthenticator;
        private ProxySelector proxySelector;
        private Dns dns = Dns.SYSTEM;
        private final List<Interceptor> interceptors = new ArrayList<>();
        private final List<Interceptor> networkInterceptors = new ArrayList<>();

        private Builder() {
        }

        /**
         * Default 10 s, as OkHttp: long enough for a slow handshake across the world, short enough that a dead
         * host fails while the caller still cares. {@link #NO_TIMEOUT} (or null) means none (the OS's own connect
         * timeout).
         *
         * @param timeout the connect timeout
         * @return this builder
         */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = checkTimeout(timeout);
            return this;
        }

        /**
         * Time from the request written to the response head received, across interim (1xx) responses. Default
         * none, as Go's {@code ResponseHeaderTimeout}: how long a server may think is the caller's knowledge, not the
         * library's. The read timeout still bounds each silence while the head arrives, so a server that accepts
         * and never answers fails after it (10 s by default).
         *
         * @param timeout the response-header timeout
         * @return this builder
         */
        public Builder responseHeaderTimeout(Duration timeout) {
            this.responseHeaderTimeout = checkTimeout(timeout);
            return this;
        }

        /**
         * Longest wait for the next byte while reading the response (head or body). Default 10 s, as OkHttp: without
         * one, a server that accepts and never answers, or stalls mid-body, blocks the caller forever (Go and the
         * JDK have none, and their users learn it in production). Long polls and server-sent events, whose server
         * may stay silent for longer, pass {@link #NO_TIMEOUT}.
         *
         * @param timeout the read timeout
         * @return this builder
         */
        public Builder readTimeout(Duration timeout) {
            this.readTimeout = checkTimeout(timeout);
            return this;
        }

        /**
         * Longest time sending the request may make no progress: a server that stops reading an upload would
         * otherwise hold the caller forever. Default 10 s, as OkHttp; it bounds each stall, not the whole upload, so
         * a slow but moving upload of any size is fine. {@link #NO_TIMEOUT} means none. HTTP/1.1: one socket write
         * blocked that long fails the call and closes the connection. HTTP/2: an upload granted no flow-control window
         * for that long fails with its stream reset, and the connection serves the others; a socket write blocked
         * that long (the server reads nothing) fails the connection with every stream on it.
         *
         * @param timeout the write timeout
         * @return this builder
         */
        public Builder writeTimeout(Duration timeout) {
            this.writeTimeout = checkTimeout(timeout);
            return this;
        }

        /**
         * Whole-call limit, from {@code send} to the body's end, including waiting for a connection and retries.
         * Default none (the connect, read and write timeouts bound every wait; a whole-call bound depends on what
         * the call is); a request's own {@link Request.Builder#timeout} overrides it.
         *
         * @param timeout the whole-call timeout; {@link #NO_TIMEOUT} or null for none
         * @return this builder
         */
        public Builder callTimeout(Duration timeout) {
            this.callTimeout = checkTimeout(timeout);
            return this;
        }

        /**
         * Default {@link PoolConfig#defaults()}.
         *
         * @param pool the idle-connection limits and idle timeout
         * @return this builder
         */
        public Builder pool(PoolConfig pool) {
            this.pool = Objects.requireNonNull(pool, "pool");
            return this;
        }

        /**
         * Default {@link DrainPolicy#defaults()}: inline, background drain within 256 KiB and 50 ms, hand-off.
         *
         * @param drainPolicy what closing an unread body does with the rest and the connection
         * @return this builder
         */
        public Builder drainPolicy(DrainPolicy drainPolicy) {
            this.drainPolicy = Objects.requireNonNull(drainPolicy, "drainPolicy");
            return this;
        }

        /**
         * Default true. False sends {@code Connection: close} and never reuses a connection (Go's
         * {@code DisableKeepAlives}): one connection per request, closed with its response.
         *
         * @param keepAlive whether connections are reused
         * @return this builder
         */
        public Builder keepAlive(boolean keepAlive) {
            this.keepAlive = keepAlive;
            return this;
        }

        /**
         * A trace receiving every request's events, in addition to each request's own. Default none.
         *
         * @param trace receives the events of every call; it must be safe for concurrent calls
         * @return this builder
         */
        public Builder trace(ClientTrace trace) {
            this.trace = Objects.requireNonNull(trace, "trace");
            return this;
        }

        /**
         * Makes a trace for every call, from its request, so that each event is known to belong to that call (a
         * shared {@link #trace} sees concurrent calls' events interleaved). Default none.
         *
         * @param factory makes each call's trace; null for none
         * @return this builder
         */
        public Builder traceFactory(ClientTrace.Factory factory) {
            this.traceFactory = Objects.requireNonNull(factory, "factory");
            return this;
        }

        /**
         * Adds an application interceptor: around the whole call, seeing the caller's request and the final response
         * once (see {@link Interceptor}). Runs in the order added, before the client's own redirects,
         * authentication, cookies and decompression. Default none.
         *
         * @param interceptor the interceptor, appended after those added before
         * @return this builder
         */
        public Builder addInterceptor(Interceptor interceptor) {
            interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
            return this;
        }

        /**
         * Adds a network interceptor: around each exchange on a connection, seeing every redirect hop and retry with
         * its connection, the request as sent and the response as received (see {@link Interceptor}). Default none.
         *
         * @param interceptor the interceptor, appended after those added before
         * @return this builder
         */
        public Builder addNetworkInterceptor(Interceptor interceptor) {
            networkInterceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
            return this;
        }

        /**
         * Which redirects are followed within a call. Default {@link RedirectPolicy#defaults()}: up to 10, never from
         * https to http, as Go and OkHttp follow by default (the JDK client does not: {@link RedirectPolicy#none()}).
         *
         * @param policy the redirect rules
         * @return this builder
         */
        public Builder redirectPolicy(RedirectPolicy policy) {
            this.redirectPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Default true, as Go and OkHttp: requests ask for {@code Accept-Encoding: gzip, deflate} and a compressed
         * response is decoded as it is read, its {@code Content-Encoding} and {@code Content-Length} removed (they
         * describe the bytes on the wire; {@link Response#decodedEncoding()} says what was decoded). Closing such a
         * body unread drains its compressed bytes as any other's. A request that names its own
         * {@code Accept-Encoding} (or sends {@code Range}, or is a HEAD) gets the response as it came. Decoded bodies
         * are bounded by {@link ResponseLimits} against decompression bombs. False sends no {@code Accept-Encoding}.
         *
         * @param compression whether the client asks for and decodes compressed bodies
         * @return this builder
         */
        public Builder compression(boolean compression) {
            this.compression = compression;
            return this;
        }

        /**
         * Keeps cookies in {@code handler}: a {@code new java.net.CookieManager()} accepts them from the servers that
         * set them, as browsers do. Every exchange (redirect hops too) sends the handler's cookies for its URI and
         * stores its {@code Set-Cookie} fields. Default none, as OkHttp, Go and the JDK client: a client that keeps
         * state across calls should say so.
         *
         * @param handler the cookie store; null for none
         * @return this builder
         */
        public Builder cookieHandler(CookieHandler handler) {
            this.cookieHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /**
         * Answers servers' 401 challenges, for the origin a call was made to ({@link Authenticator#basic} for Basic).
         * Default none: a 401 is returned to the caller.
         *
         * @param authenticator answers 401s; null for none
         * @return this builder
         */
        public Builder authenticator(Authenticator authenticator) {
            this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
            return this;
        }

        /**
         * Chooses the proxy of each request. Default {@link Proxies#fromEnvironment()} read when the client is built,
         * as Go's {@code DefaultTransport} and curl do: {@code HTTPS_PROXY}, {@code HTTP_PROXY} and
         * {@code NO_PROXY} are how containers and CI configure egress, and with none set (or for localhost and
         * loopback, never proxied) every request goes direct at no cost. {@link Proxies#none()} ignores the
         * environment; {@code ProxySelector.getDefault()} follows the JDK's {@code http.proxyHost} properties.
         * Connections are pooled per proxy and origin, so a CONNECT tunnel is reused like any connection.
         *
         * @param selector chooses each request's proxy; {@link Proxies#none()} for none
         * @return this builder
         */
        public Builder proxy(ProxySelector selector) {
            this.proxySelector = Objects.requireNonNull(selector, "selector");
            return this;
        }

        /**
         * Resolves host names for new connections. Default {@link Dns#SYSTEM}, the JDK's resolver. Every address it
         * returns is tried in order until one connects; when they are of both families, those of the first one's
         * family are tried first and the others 300 ms later in parallel (RFC 8305, with Go's delay), the first
         * connection winning, so a host whose IPv6 route is broken costs 300 ms, not a connect timeout. The address
         * used is in the trace ({@code connectDone}) and in {@link ConnectionInfo#remoteAddress()}.
         *
         * @param dns the resolver
         * @return this builder
         */
        public Builder dns(Dns dns) {
            this.dns = Objects.requireNonNull(dns, "dns");
            return this;
        }

        /**
         * Answers proxies' 407 challenges, for plain http through a proxy and for CONNECT tunnels. Default none: a
         * proxy URL with user info ({@code http://user:pass@proxy:3128}) still sends its Basic credentials up front.
         *
         * @param authenticator answers 407s; null for none
         * @return this builder
         */
        public Builder proxyAuthenticator(Authenticator authenticator) {
            this.proxyAuthenticator = Objects.requireNonNull(authenticator, "authenticator");
            return this;
        }

        /**
         * Bounds on a response's head and trailers. Default {@link ResponseLimits#defaults()}.
         *
         * @param limits the head, trailer and decompression bounds
         * @return this builder
         */
        public Builder responseLimits(ResponseLimits limits) {
            this.limits = Objects.requireNonNull(limits, "limits");
            return this;
        }

        /**
         * Default {@code shuttle/0.1}; a request's own {@code User-Agent} header wins; null sends none.
         *
         * @param userAgent the default {@code User-Agent}; null for none
         * @return this builder
         */
        public Builder userAgent(String userAgent) {
            this.userAgent = userAgent;
            return this;
        }

        /**
         * The monotonic clock (nanoseconds) of every deadline, idle time and learned cost: tests pass a fake one.
         * Not API: package-private, so the clock can never be one a caller set by mistake.
         */
        Builder nanoClock(LongSupplier nanoClock) {
            this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
            return this;
        }

        /**
         * Builds the client; the builder may be used again for another one.
         *
         * @return a new client with its own, empty pool
         * @throws IllegalStateException for prior knowledge without keep-alive (HTTP/2 has no per-request
         *                               connections)
         */
        public HttpClient build() {
            if (http2PriorKnowledge && !keepAlive) {
                throw new IllegalStateException("http2PriorKnowledge needs keepAlive(true)");
            }
            return new HttpClient(new ClientSettings(connectTimeout, responseHeaderTimeout, readTimeout, writeTimeout,
                    callTimeout, tlsHandshakeTimeout, pool, drainPolicy, keepAlive, trace, traceFactory, limits,
                    userAgent, nanoClock, sslContext, hostnameVerification, http2 && keepAlive, http2PriorKnowledge,
                    http2PingInterval, expectContinueTimeout, List.copyOf(interceptors), List.copyOf(networkInterceptors),
                    redirectPolicy, compression, cookieHandler, authenticator, proxyAuthenticator,
                    proxySelector != null ? proxySelector : Proxies.fromEnvironment(), dns));
        }

    }
}
