package dev.shuttle.server;

import dev.shuttle.server.core.ServerEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLContext;

/**
 * An HTTP/1.1 and HTTP/2 server, plaintext or over TLS (HTTP/2 by ALPN {@code h2}, or h2c on a plaintext port): one
 * virtual thread per active HTTP/1.1 connection, and per HTTP/2 stream, running the {@link Handler}; idle keep-alive
 * and HTTP/2 connections parked without a thread (and without a buffer, TLS included) in a shared readiness watcher.
 *
 * <pre>{@code
 * try (HttpServer server = HttpServer.builder()
 *         .port(0)
 *         .handler((request, response) -> response.send("hello " + request.path()))
 *         .build()
 *         .start()) {
 *     System.out.println("listening on " + server.port());
 *     ...
 * }
 * }</pre>
 *
 * <p>Lifecycle: CREATED → RUNNING ({@link #start()}) → SHUTTING_DOWN ({@link #shutdown(Duration)} or
 * {@link #close()}) → TERMINATED. A server runs once; {@code start()} on a running or stopped server throws
 * {@code IllegalStateException}. Thread-safe.
 */
public final class HttpServer implements AutoCloseable {
    /** close()'s deadline for active requests: long enough for a quick handler, short enough for tests and Ctrl-C. */
    private static final Duration CLOSE_DEADLINE = Duration.ofSeconds(2);

    private enum Lifecycle { CREATED, RUNNING, SHUTTING_DOWN, TERMINATED }

    private final InetSocketAddress bindAddress;
    private final int backlog;
    private final ServerEngine engine;

    private final ReentrantLock lifecycleLock = new ReentrantLock();
    /**
     * Signalled when the draining thread stops: the lifecycle reached TERMINATED, or that thread was interrupted and
     * another shutdown may take over.
     */
    private final Condition drainStopped = lifecycleLock.newCondition();
    /** Guarded by lifecycleLock. */
    private Lifecycle lifecycle = Lifecycle.CREATED;
    /** Guarded by lifecycleLock: a shutdown is running the engine's drain (only while SHUTTING_DOWN). */
    private boolean draining;
    /** Guarded by lifecycleLock: what the shutdown that drained the server returned. */
    private boolean shutdownGraceful = true;

    private HttpServer(Builder builder) {
        this.bindAddress = new InetSocketAddress(builder.address, builder.port);
        this.backlog = builder.backlog;
        this.engine = new ServerEngine(new ServerEngine.Config(
                Objects.requireNonNull(builder.handler, "handler is required"),
                builder.limits, builder.timeouts, builder.listener, builder.parking, builder.tls),
                new Protocols(builder.http2));
    }

    /** {@return a builder with every default but the handler} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Binds the address and starts accepting. Returns this server, for chaining.
     *
     * @return this server, running
     * @throws IOException when the address cannot be bound
     */
    public HttpServer start() throws IOException {
        lifecycleLock.lock();
        try {
            if (lifecycle != Lifecycle.CREATED) {
                throw new IllegalStateException("state: " + lifecycle);
            }
            engine.start(bindAddress, backlog);
            lifecycle = Lifecycle.RUNNING;
            return this;
        } finally {
            lifecycleLock.unlock();
        }
    }

    /** {@return the bound port (the ephemeral one when built with port 0)} */
    public int port() {
        return localAddress().getPort();
    }

    /** {@return the bound address; only after {@link #start()}} */
    public InetSocketAddress localAddress() {
        InetSocketAddress address = engine.localAddress();
        if (address == null) {
            throw new IllegalStateException("server not started");
        }
        return address;
    }

    /** {@return a snapshot of the server's counters} */
    public ServerStats stats() {
        return engine.stats();
    }

    /** {@return whether the server accepts connections: started and not yet shut down} */
    public boolean isRunning() {
        lifecycleLock.lock();
        try {
            return lifecycle == Lifecycle.RUNNING;
        } finally {
            lifecycleLock.unlock();
        }
    }

    /**
     * Graceful shutdown: stops accepting at once, closes new, idle and parked connections, lets active requests
     * finish (their responses say {@code Connection: close}), and at {@code deadline} closes whatever is still open.
     * Blocks until every connection is closed. On a server that never started it returns true at once. While another
     * thread's shutdown is draining, it waits for that one (up to its own deadline) and returns its result, or false
     * if its deadline came first; after shutdown it returns the result again. Called from a handler, it waits for
     * that handler's own connection too, so it then runs to the deadline.
     *
     * <p>An interrupt ends the wait with {@code InterruptedException} and nothing else: the server stays shutting
     * down, its connections go on finishing, and the next call (or one already waiting) takes the drain up again with
     * its own deadline.
     *
     * @param deadline how long active requests may run on before their connections are closed
     * @return true when every connection finished before the deadline, false when some had to be cut off
     * @throws InterruptedException when the calling thread is interrupted while it waits; the server keeps shutting
     *     down
     */
    public boolean shutdown(Duration deadline) throws InterruptedException {
        long deadlineNanos = System.nanoTime() + deadline.toNanos();
        lifecycleLock.lock();
        try {
            if (lifecycle == Lifecycle.CREATED) {
                lifecycle = Lifecycle.TERMINATED;
                return true;
            }
            if (lifecycle == Lifecycle.RUNNING) {
                lifecycle = Lifecycle.SHUTTING_DOWN;
            }
            while (lifecycle == Lifecycle.SHUTTING_DOWN && draining) {
                long nanos = deadlineNanos - System.nanoTime();
                if (nanos <= 0) {
                    return false;
                }
                drainStopped.awaitNanos(nanos);
            }
            if (lifecycle == Lifecycle.TERMINATED) {
                return shutdownGraceful;
            }
            draining = true;
        } finally {
            lifecycleLock.unlock();
        }
        boolean drained = false;
        boolean graceful = false;
        try {
            graceful = engine.shutdown(Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime())));
            drained = true;
            return graceful;
        } finally {
            lifecycleLock.lock();
            try {
                draining = false;
                if (drained) { // not when interrupted: connections may still run, and the next call drains on
                    lifecycle = Lifecycle.TERMINATED;
                    shutdownGraceful = graceful;
                }
                drainStopped.signalAll();
            } finally {
                lifecycleLock.unlock();
            }
        }
    }

    /**
     * {@link #shutdown(Duration)} with a 2 s deadline; an interrupt ends the wait early and is kept (the server is
     * then still shutting down: see {@code shutdown}).
     */
    @Override
    public void close() {
        try {
            shutdown(CLOSE_DEADLINE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        InetSocketAddress address = engine.localAddress();
        return "HttpServer[" + (address == null ? bindAddress : address) + "]";
    }

    /** Hand-written builder; only {@link #handler} is required. */
    public static final class Builder {
        private InetAddress address = InetAddress.getLoopbackAddress();
        private int port = 0;
        private int backlog = 1024;
        private Handler handler;
        private ServerLimits limits = ServerLimits.defaults();
        private ServerTimeouts timeouts = ServerTimeouts.defaults();
        private ConnectionListener listener = ConnectionListener.NONE;
        private boolean parking = true;
        private SSLContext tls;
        private Http2Options http2 = Http2Options.defaults();

        private Builder() {
        }

        /**
         * Default: the loopback address, so nothing is exposed by accident; pass the wildcard address
         * ({@code 0.0.0.0} or {@code ::}) to serve other machines.
         *
         * @param address the local address to bind
         * @return this builder
         */
        public Builder address(InetAddress address) {
            this.address = Objects.requireNonNull(address, "address");
            return this;
        }

        /**
         * Like {@link #address(InetAddress)}, resolving {@code host} now.
         *
         * @param host a host name or address literal to bind
         * @return this builder
         */
        public Builder host(String host) {
            try {
                return address(InetAddress.getByName(host));
            } catch (UnknownHostException e) {
                throw new UncheckedIOException(e);
            }
        }

        /**
         * Default 0: an ephemeral port, read it back with {@link HttpServer#port()}.
         *
         * @param port the port, 0 for an ephemeral one
         * @return this builder
         */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port out of range: " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * Default 1024 pending connections, between Go's (the kernel's somaxconn, 4096 on current Linux) and
         * the JDK's 50, which a burst of clients overflows.
         *
         * @param backlog the accept queue length
         * @return this builder
         */
        public Builder backlog(int backlog) {
            if (backlog <= 0) {
                throw new IllegalArgumentException("backlog must be positive: " + backlog);
            }
            this.backlog = backlog;
            return this;
        }

        /**
         * Required.
         *
         * @param handler the handler of every request (often a {@code Router})
         * @return this builder
         */
        public Builder handler(Handler handler) {
            this.handler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /**
         * Default {@link ServerLimits#defaults()}.
         *
         * @param limits the request size limits
         * @return this builder
         */
        public Builder limits(ServerLimits limits) {
            this.limits = Objects.requireNonNull(limits, "limits");
            return this;
        }

        /**
         * Default {@link ServerTimeouts#defaults()}.
         *
         * @param timeouts the read, write, idle and handshake timeouts
         * @return this builder
         */
        public Builder timeouts(ServerTimeouts timeouts) {
            this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
            return this;
        }

        /**
         * Default {@link ConnectionListener#NONE}.
         *
         * @param listener receives each connection's state changes
         * @return this builder
         */
        public Builder connectionListener(ConnectionListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * Default true: an idle keep-alive connection gives up its thread and read buffer and waits in the shared
         * readiness watcher. False keeps one virtual thread (blocked in a read) and a read buffer per idle
         * connection, as Helidon 4 and most thread-per-connection servers do; the lab uses it for comparison.
         *
         * @param parking whether idle connections give up their thread and buffer
         * @return this builder
         */
        public Builder parking(boolean parking) {
            this.parking = parking;
            return this;
        }

        /**
         * Default none (plaintext). Serves HTTPS with this context's key and certificate: TLS 1.2 and 1.3 as the JDK
         * enables them, the server's cipher order, ALPN {@code http/1.1}, session resumption through the context's
         * session cache. Keep-alive and parking work exactly as in plaintext; a plaintext request on the TLS port gets
         * a 400 that says so. {@code dev.shuttle.transport.tls.KeyMaterial} builds a context from PKCS#12 or PEM
         * files, {@code SelfSignedCertificate} one for tests.
         *
         * @param context the TLS context with the server's key and certificate
         * @return this builder
         */
        public Builder tls(SSLContext context) {
            this.tls = Objects.requireNonNull(context, "context");
            return this;
        }

        /**
         * Default {@link Http2Options#defaults()}: HTTP/2 over TLS (ALPN {@code h2}) and h2c (prior knowledge and
         * {@code Upgrade: h2c}), served by the same handler as HTTP/1.1; {@link Http2Options#disabled()} for HTTP/1.1
         * only.
         *
         * @param http2 the HTTP/2 options
         * @return this builder
         */
        public Builder http2(Http2Options http2) {
            this.http2 = Objects.requireNonNull(http2, "http2");
            return this;
        }

        /** {@return the server, not started yet} */
        public HttpServer build() {
            return new HttpServer(this);
        }

        /**
         * {@code build().start()}.
         *
         * @return the running server
         * @throws IOException when the address cannot be bound
         */
        public HttpServer start() throws IOException {
            return build().start();
        }
    }
}
