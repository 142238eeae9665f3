package dev.shuttle.mockserver;

import dev.shuttle.server.GoAwayEvent;
import dev.shuttle.server.Http2Options;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.ServerTimeouts;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLContext;

/**
 * A scriptable HTTP server for tests that counts what connection reuse depends on: new connections, requests per
 * connection, TLS handshakes (resumed ones apart) and the bytes each connection's socket accepted. Like OkHttp's
 * MockWebServer, with those counts; usable from any client.
 *
 * <pre>
 * try (MockServer server = MockServer.builder().respondWith(MockResponse.ofSize(2048)).start()) {
 *     for (int i = 0; i &lt; 100; i++) {
 *         callAndCloseUnread(server.url("/"));
 *     }
 *     ReuseAssertions.assertReuse(server).newConnectionsAtMost(1);
 * }
 * </pre>
 *
 * <p>It runs on Shuttle's {@link HttpServer} on 127.0.0.1: HTTP/1.1, and with {@link Builder#http2()} HTTP/2 (h2c by
 * prior knowledge or {@code Upgrade: h2c}, and {@code h2} by ALPN over TLS); with {@link Builder#tls()} HTTPS with a
 * certificate generated at start ({@link #clientContext()} trusts it). {@link Builder#rawHttp1()} swaps in a small
 * HTTP/1.1 server on blocking sockets instead, which can also reset a connection ({@link MockResponse.Builder#resetAfter}).
 *
 * <p>Over HTTP/2 it also counts the GOAWAY frames the server sends, and whether each came before the client had closed
 * ({@link #goAways()}), as the server reports them ({@link dev.shuttle.server.ConnectionListener#onGoAway}).
 *
 * <p>Responses come from the {@link Dispatcher} when one is set; otherwise from the queue ({@link #enqueue}), then
 * from {@link Builder#respondWith}; with neither, 404.
 */
public final class MockServer implements AutoCloseable {
    /** Closed connections, and requests not yet taken, kept in detail; totals are always complete. */
    public static final int KEPT_CONNECTIONS = 10_000;
    static final long MAX_REQUEST_BODY = 16L << 20;

    private final Ledger ledger = new Ledger();
    private final CountDownLatch closing = new CountDownLatch(1);
    private final ReentrantLock queueLock = new ReentrantLock();
    private final ArrayDeque<MockResponse> queue = new ArrayDeque<>();
    private final MockResponse fallback;
    private final SelfSignedCertificate certificate; // null: plaintext
    private final HttpServer server; // null: raw engine
    private final RawHttp1Engine raw; // null: Shuttle's server
    private final boolean http2;

    private MockServer(Builder b) throws IOException {
        this.fallback = b.fallback;
        this.certificate = b.tls ? (b.certificate != null ? b.certificate : SelfSignedCertificate.generate()) : null;
        this.http2 = b.http2;
        Dispatcher dispatcher = b.dispatcher != null ? b.dispatcher : this::fromQueue;
        Script.Stall stall = max -> closing.await(max.toNanos(), TimeUnit.NANOSECONDS);
        InetAddress loopback = InetAddress.getLoopbackAddress();
        if (b.raw) {
            this.server = null;
            this.raw = new RawHttp1Engine(loopback, b.port, certificate == null ? null : certificate.serverContext(),
                    b.idleTimeout, ledger, dispatcher, stall);
        } else {
            ShuttleEngine engine = new ShuttleEngine(ledger, dispatcher, stall);
            HttpServer.Builder server = HttpServer.builder()
                    .address(loopback)
                    .port(b.port)
                    .handler(engine)
                    .connectionListener(engine)
                    .timeouts(ServerTimeouts.builder().idle(b.idleTimeout).build())
                    .http2(b.http2 ? Http2Options.defaults() : Http2Options.disabled());
            if (certificate != null) {
                server.tls(certificate.serverContext());
            }
            this.raw = null;
            this.server = server.start();
        }
    }

    /** {@return a builder of a plaintext HTTP/1.1 server on a free port} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * {@return a plaintext HTTP/1.1 server on a free port, answering from the queue}
     *
     * @throws IOException when no port can be bound
     */
    public static MockServer start() throws IOException {
        return builder().start();
    }

    /** {@return the bound port} */
    public int port() {
        return server != null ? server.port() : raw.port();
    }

    /** {@return the bound address: 127.0.0.1 and the port} */
    public InetSocketAddress address() {
        return server != null ? new InetSocketAddress(server.localAddress().getAddress(), server.port())
                : raw.localAddress();
    }

    /** {@return whether the server speaks TLS} */
    public boolean isTls() {
        return certificate != null;
    }

    /** {@return whether HTTP/2 is offered (h2c, and h2 over TLS)} */
    public boolean isHttp2() {
        return http2;
    }

    /**
     * {@code https} over TLS, else {@code http}.
     *
     * @return the URL scheme
     */
    public String scheme() {
        return isTls() ? "https" : "http";
    }

    /**
     * {@code http://127.0.0.1:PORT} + {@code pathAndQuery} (which should start with {@code /}).
     *
     * @param pathAndQuery the path, with an optional query
     * @return the URL
     */
    public URI url(String pathAndQuery) {
        return URI.create(scheme() + "://127.0.0.1:" + port() + pathAndQuery);
    }

    /**
     * {@return the generated certificate (an authority and a leaf for localhost, 127.0.0.1, ::1); null over plaintext}
     */
    public SelfSignedCertificate certificate() {
        return certificate;
    }

    /**
     * {@return a client context trusting the server's authority alone; each call returns a fresh one (own session
     * cache)}
     */
    public SSLContext clientContext() {
        if (certificate == null) {
            throw new IllegalStateException("the server is plaintext: build it with tls()");
        }
        return certificate.clientContext();
    }

    /**
     * Queues a response for the next request that the dispatcher leaves to the queue.
     *
     * @param response the response
     * @return this server
     */
    public MockServer enqueue(MockResponse response) {
        Objects.requireNonNull(response, "response");
        queueLock.lock();
        try {
            queue.add(response);
        } finally {
            queueLock.unlock();
        }
        return this;
    }

    private MockResponse fromQueue(RecordedRequest request) {
        queueLock.lock();
        try {
            MockResponse next = queue.poll();
            if (next != null) {
                return next;
            }
        } finally {
            queueLock.unlock();
        }
        return fallback != null ? fallback
                : MockResponse.text(404, "shuttle-mockserver: no response queued for " + request.target() + "\n");
    }

    /** The dispatcher's answer, or a 500 that says why there is none. */
    static MockResponse dispatchSafely(Dispatcher dispatcher, RecordedRequest request) {
        try {
            MockResponse response = dispatcher.dispatch(request);
            return response != null ? response : MockResponse.text(500, "shuttle-mockserver: the dispatcher "
                    + "returned null for " + request.target() + "\n");
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            return MockResponse.text(500, "shuttle-mockserver: the dispatcher failed: " + trace);
        }
    }

    // ---- counts ----

    /** {@return everything counted so far, with a record per connection} */
    public ReuseStats stats() {
        return ledger.snapshot();
    }

    /** {@return the new connections accepted since start} */
    public long connections() {
        return ledger.connections();
    }

    /** {@return the requests received since start} */
    public long requests() {
        return ledger.requests();
    }

    /** {@return the TLS handshakes completed since start, full and resumed} */
    public long tlsHandshakes() {
        return ledger.tlsHandshakes();
    }

    /**
     * Of {@link #tlsHandshakes()}, the resumed ones.
     *
     * @return the resumed-handshake count
     */
    public long tlsResumed() {
        return ledger.tlsResumed();
    }

    /** {@return the connections not yet closed} */
    public long openConnections() {
        return ledger.openConnections();
    }

    /** {@return the bytes the sockets accepted for sending since start, every connection, closed or open} */
    public long bytesWritten() {
        return ledger.bytesWritten();
    }

    /**
     * Waits until at most {@code max} connections are open, so byte counts are final; false if that did not happen
     * within {@code timeout}.
     *
     * @param max the most open connections waited for
     * @param timeout the longest wait
     * @return whether the count got there in time
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean awaitOpenConnectionsAtMost(long max, Duration timeout) throws InterruptedException {
        return ledger.awaitOpenAtMost(max, timeout);
    }

    /**
     * {@link #awaitOpenConnectionsAtMost}(0, timeout): call after closing the client, before asserting on bytes.
     *
     * @param timeout the longest wait
     * @return whether every connection closed in time
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean awaitConnectionsClosed(Duration timeout) throws InterruptedException {
        return ledger.awaitOpenAtMost(0, timeout);
    }

    /**
     * GOAWAY frames the server sent since start (HTTP/2 only), those that answered the client's own GOAWAY included.
     * Each is counted before its connection's close, so the count is final once {@link #awaitConnectionsClosed}
     * returned; a client may read a frame a moment before it is counted, so on an open connection wait for the
     * number expected with {@link #awaitGoAwaysSent}.
     *
     * @return the GOAWAY count
     */
    public long goAwaysSent() {
        return ledger.goAwaysSent();
    }

    /**
     * Of {@link #goAwaysSent()}, those the server sent while the client had neither closed nor sent a GOAWAY of its
     * own (the server sends none after the client closed, and one that answers the client's GOAWAY is not counted
     * here): connections the server ended for a client that still wanted them. A well-behaved client sees none but
     * at the idle timeout and at shutdown. Final once {@link #awaitConnectionsClosed} returned, shutdown apart: the
     * server sends these (idle timeout, a client's error) from the connection's own thread, which reports them before
     * it closes the connection.
     *
     * @return the count of GOAWAYs the server began
     */
    public long goAwaysBeforeClientClosed() {
        return ledger.goAwaysBeforeClientClosed();
    }

    /**
     * Every GOAWAY the server sent, oldest first (the last {@link #KEPT_CONNECTIONS}): its last stream, code, reason,
     * and {@link GoAwayEvent#clientFirst()} when it answered the client's own GOAWAY.
     *
     * @return the GOAWAY events, unmodifiable
     */
    public List<GoAwayEvent> goAways() {
        return ledger.goAways();
    }

    /**
     * Waits until the server reported at least {@code atLeast} GOAWAYs since start ({@link #goAwaysSent()}); false if
     * that did not happen within {@code timeout}.
     *
     * @param atLeast the count waited for
     * @param timeout the longest wait
     * @return whether the count got there in time
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean awaitGoAwaysSent(long atLeast, Duration timeout) throws InterruptedException {
        return ledger.awaitGoAwaysSent(atLeast, timeout);
    }

    /**
     * {@return the oldest request not yet taken, waiting up to {@code timeout}; null if none arrived}
     *
     * @param timeout the longest wait
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public RecordedRequest takeRequest(Duration timeout) throws InterruptedException {
        return ledger.take(timeout);
    }

    /** {@return the server's own gauges, for a failure message} */
    public String describe() {
        String counts = stats().toString();
        if (server == null) {
            return "raw HTTP/1.1 engine: " + counts;
        }
        var s = server.stats();
        if (http2) {
            counts += ", " + ledger.goAwaysSent() + " GOAWAY sent (" + ledger.goAwaysBeforeClientClosed()
                    + " before the client closed)";
        }
        return counts + "; server: accepted " + s.accepted() + ", open " + s.open() + ", active " + s.active()
                + ", idle " + s.idle() + ", parked " + s.parked() + ", requests " + s.requests();
    }

    /** Wakes stalled responses, then stops the server (closing every connection). */
    @Override
    public void close() {
        closing.countDown();
        if (server != null) {
            server.close();
        } else {
            raw.close();
        }
    }

    @Override
    public String toString() {
        return "MockServer[" + scheme() + "://127.0.0.1:" + port() + (http2 ? ", HTTP/2" : "")
                + (raw != null ? ", raw HTTP/1.1" : "") + "]";
    }

    /** Every option has a default: plaintext HTTP/1.1 on a free port of 127.0.0.1, answering from the queue. */
    public static final class Builder {
        private int port;
        private boolean tls;
        private SelfSignedCertificate certificate;
        private boolean http2;
        private boolean raw;
        private Duration idleTimeout = Duration.ofSeconds(60);
        private Dispatcher dispatcher;
        private MockResponse fallback;

        private Builder() {
        }

        /**
         * Default 0: a free port.
         *
         * @param port the port, 0 for a free one
         * @return this builder
         */
        public Builder port(int port) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("port out of range: " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * HTTPS with a certificate generated at start.
         *
         * @return this builder
         */
        public Builder tls() {
            this.tls = true;
            return this;
        }

        /**
         * HTTPS with this certificate (to share one authority between servers, or with the client's set-up).
         *
         * @param certificate the certificate the server presents
         * @return this builder
         */
        public Builder tls(SelfSignedCertificate certificate) {
            this.tls = true;
            this.certificate = Objects.requireNonNull(certificate, "certificate");
            return this;
        }

        /**
         * Offers HTTP/2: h2c (prior knowledge and {@code Upgrade: h2c}) and, with TLS, ALPN {@code h2}.
         *
         * @return this builder
         */
        public Builder http2() {
            this.http2 = true;
            return this;
        }

        /**
         * The raw HTTP/1.1 engine instead of Shuttle's server: plain blocking sockets, which can send a TCP reset
         * ({@link MockResponse.Builder#resetAfter}). No HTTP/2.
         *
         * @return this builder
         */
        public Builder rawHttp1() {
            this.raw = true;
            return this;
        }

        /**
         * How long a kept-alive connection may wait for its next request before the server closes it (default 60 s).
         *
         * @param timeout the idle timeout
         * @return this builder
         */
        public Builder idleTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("idle timeout must be positive: " + timeout);
            }
            this.idleTimeout = timeout;
            return this;
        }

        /**
         * Chooses every response; the queue is then unused.
         *
         * @param dispatcher chooses the response to each request
         * @return this builder
         */
        public Builder dispatcher(Dispatcher dispatcher) {
            this.dispatcher = Objects.requireNonNull(dispatcher, "dispatcher");
            return this;
        }

        /**
         * The response when the queue is empty (default: 404 saying so).
         *
         * @param response the fallback response
         * @return this builder
         */
        public Builder respondWith(MockResponse response) {
            this.fallback = Objects.requireNonNull(response, "response");
            return this;
        }

        /**
         * {@return the started server, bound to 127.0.0.1}
         *
         * @throws IOException when the port cannot be bound
         */
        public MockServer start() throws IOException {
            if (raw && http2) {
                throw new IllegalStateException("the raw HTTP/1.1 engine does not speak HTTP/2");
            }
            return new MockServer(this);
        }
    }
}
