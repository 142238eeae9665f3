package dev.shuttle.client;

import java.time.Duration;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * The TLS and HTTP/2 options of {@link HttpClient.Builder}, in a file of their own; not a type to use by itself:
 * every method is the builder's, and returns it.
 */
abstract sealed class TlsAndHttp2Options permits HttpClient.Builder {
    SSLContext sslContext;
    boolean hostnameVerification = true;
    Duration tlsHandshakeTimeout = Duration.ofSeconds(10);
    boolean http2 = true;
    boolean http2PriorKnowledge;
    Duration http2PingInterval = Duration.ofSeconds(30);
    Duration expectContinueTimeout = Duration.ofSeconds(1);

    TlsAndHttp2Options() {
    }

    private HttpClient.Builder self() {
        return (HttpClient.Builder) this;
    }

    /**
     * The TLS context for {@code https} (trust anchors, client certificates, session cache). Default the JDK's
     * {@code SSLContext.getDefault()}: the JDK's trust store. Sessions resume through this context's cache, so
     * share one context between clients that talk to the same servers.
     *
     * @param sslContext the TLS context of every https connection
     * @return this builder
     */
    public HttpClient.Builder sslContext(SSLContext sslContext) {
        this.sslContext = Objects.requireNonNull(sslContext, "sslContext");
        return self();
    }

    /**
     * Default true: the server's certificate must name the host of the URL (RFC 2818/6125 rules). False accepts
     * a certificate for any name (it must still chain to a trusted anchor): for tests only.
     *
     * @param verify whether the certificate must name the host
     * @return this builder
     */
    public HttpClient.Builder hostnameVerification(boolean verify) {
        this.hostnameVerification = verify;
        return self();
    }

    /**
     * Default 10 s, as Go's {@code TLSHandshakeTimeout}: a handshake is two round trips; longer means the server
     * is stuck, and a new connection is not worth waiting for. {@link HttpClient#NO_TIMEOUT} (or null) means none (the call
     * timeout still applies).
     *
     * @param timeout the TLS handshake timeout
     * @return this builder
     */
    public HttpClient.Builder tlsHandshakeTimeout(Duration timeout) {
        this.tlsHandshakeTimeout = checkTimeout(timeout);
        return self();
    }

    /**
     * Default true: {@code https} connections offer {@code h2} and {@code http/1.1} in ALPN, and a server that
     * picks {@code h2} gets one multiplexed connection per origin (another when its stream limit is reached).
     * False offers only {@code http/1.1}. HTTP/2 needs keep-alive: with {@link HttpClient.Builder#keepAlive(boolean) keepAlive(false)}
     * only HTTP/1.1 is offered.
     *
     * @param enabled whether https connections offer HTTP/2
     * @return this builder
     */
    public HttpClient.Builder http2(boolean enabled) {
        this.http2 = enabled;
        return self();
    }

    /**
     * Default false. True speaks HTTP/2 to every {@code http} origin from the first byte (h2c with prior
     * knowledge, RFC 9113 section 3.3), without the HTTP/1.1 Upgrade dance: for servers known to accept it, such
     * as service meshes and gRPC backends. A server that does not speak it fails the request. Applies to the
     * whole client: a per-request switch would need separate pools for the same origin.
     *
     * @param priorKnowledge whether plain http connections speak HTTP/2 from the start
     * @return this builder
     */
    public HttpClient.Builder http2PriorKnowledge(boolean priorKnowledge) {
        this.http2PriorKnowledge = priorKnowledge;
        return self();
    }

    /**
     * Default 30 s: an HTTP/2 connection from which nothing arrived for this long sends a PING, and is closed if
     * the answer does not come within min(interval, 10 s). An idle connection is woken from the watcher for it
     * (a virtual thread for the round trip, then it parks again), so dead peers and dropped NAT mappings are
     * found before a request is sent on them. Go's {@code ReadIdleTimeout} and OkHttp's {@code pingInterval}
     * are off by default; a few bytes per idle connection every 30 s is cheap next to a failed request.
     * {@link HttpClient#NO_TIMEOUT} (or null) disables it.
     *
     * @param interval the silence before a PING
     * @return this builder
     */
    public HttpClient.Builder http2PingInterval(Duration interval) {
        this.http2PingInterval = checkTimeout(interval);
        return self();
    }

    /**
     * How long a request sent with {@code Expect: 100-continue} ({@link Request.Builder#expectContinue}) waits for
     * the server's {@code 100 Continue} or final answer before sending its body anyway: servers that ignore the
     * expectation must not stall the upload. Default 1 s, as Go's {@code DefaultTransport}: a round trip to
     * anywhere, with room. {@link HttpClient#NO_TIMEOUT} waits for the answer however long it takes.
     *
     * @param timeout the wait for {@code 100 Continue}
     * @return this builder
     */
    public HttpClient.Builder expectContinueTimeout(Duration timeout) {
        this.expectContinueTimeout = checkTimeout(timeout);
        return self();
    }

    /** Internally "none" is null: {@link HttpClient#NO_TIMEOUT} (zero) and null both become it. */
    static Duration checkTimeout(Duration timeout) {
        if (timeout != null && timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be positive, or NO_TIMEOUT for none: " + timeout);
        }
        return timeout == null || timeout.isZero() ? null : timeout;
    }
}
