package dev.shuttle.interop.crossrole;

import dev.shuttle.client.HttpClient;
import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.GoAwayEvent;
import dev.shuttle.server.Handler;
import dev.shuttle.server.Http2Options;
import dev.shuttle.server.HttpServer;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Shuttle's HTTP/2 server as Shuttle's client meets it in the cross-role tests: h2c with prior knowledge, or h2 over
 * TLS with a self-signed certificate, on 127.0.0.1. Its {@code ConnectionListener} counts what the tests may assert
 * exactly: connections opened and closed, and the GOAWAYs sent. {@link #client} builds a client that speaks to it.
 */
final class CrossRoleServer implements AutoCloseable {
    static final Duration BOUND = Duration.ofSeconds(10);
    private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.generate();

    private final HttpServer server;
    private final boolean tls;
    private final AtomicInteger opened = new AtomicInteger();
    private final List<GoAwayEvent> goAways = new CopyOnWriteArrayList<>();
    /** Guards {@link #closed}; signalled on every change of it or of {@link #goAways}. */
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Connections that reached CLOSED. Guarded by {@link #lock}. */
    private int closed;

    private CrossRoleServer(HttpServer.Builder builder, boolean tls) throws IOException {
        this.tls = tls;
        builder.port(0).connectionListener(new Listener());
        if (tls) {
            builder.tls(CERTIFICATE.serverContext());
        }
        this.server = builder.start();
    }

    static CrossRoleServer start(boolean tls, Http2Options http2, Handler handler) throws IOException {
        return new CrossRoleServer(HttpServer.builder().http2(http2).handler(handler), tls);
    }

    static CrossRoleServer start(boolean tls, Handler handler) throws IOException {
        return start(tls, Http2Options.defaults(), handler);
    }

    private final class Listener implements dev.shuttle.server.ConnectionListener {
        @Override
        public void onStateChange(dev.shuttle.server.ConnectionInfo connection, ConnectionState from,
                                  ConnectionState to) {
            if (to == ConnectionState.NEW) {
                opened.incrementAndGet();
            } else if (to == ConnectionState.CLOSED) {
                signal(() -> closed++);
            }
        }

        @Override
        public void onGoAway(dev.shuttle.server.ConnectionInfo connection, GoAwayEvent goAway) {
            signal(() -> goAways.add(goAway));
        }
    }

    private void signal(Runnable change) {
        lock.lock();
        try {
            change.run();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** A client for this server: prior knowledge on h2c, the certificate trusted over TLS; calls bounded. */
    HttpClient.Builder client() {
        HttpClient.Builder builder = HttpClient.builder().callTimeout(Duration.ofSeconds(30));
        return tls ? builder.sslContext(CERTIFICATE.clientContext()) : builder.http2PriorKnowledge(true);
    }

    String url(String path) {
        return (tls ? "https" : "http") + "://127.0.0.1:" + server.port() + path;
    }

    InetSocketAddress address() {
        return server.localAddress();
    }

    HttpServer server() {
        return server;
    }

    /** Connections accepted so far (the listener's NEW events). */
    int connectionsOpened() {
        return opened.get();
    }

    List<GoAwayEvent> goAways() {
        return List.copyOf(goAways);
    }

    /** Waits until a GOAWAY naming a last stream (not the first of a graceful two) was sent; fails after the bound. */
    GoAwayEvent awaitFinalGoAway() throws InterruptedException {
        return awaitUntil("a final GOAWAY", () -> goAways.stream()
                .filter(goAway -> goAway.lastStreamId() != Integer.MAX_VALUE).findFirst().orElse(null));
    }

    /** Waits until {@code connections} connections have closed; fails after the bound. */
    void awaitClosed(int connections) throws InterruptedException {
        awaitUntil(connections + " closed connections", () -> closed >= connections ? Boolean.TRUE : null);
    }

    private <T> T awaitUntil(String what, java.util.function.Supplier<T> found) throws InterruptedException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        lock.lock();
        try {
            for (T value; ; ) {
                if ((value = found.get()) != null) {
                    return value;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("no " + what + " within " + BOUND.toSeconds() + " s");
                }
                changed.awaitNanos(left);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdown(Duration.ofSeconds(5)); // cuts off what is still open at the deadline
    }
}
