package dev.shuttle.server.http1;

import dev.shuttle.server.ConnectionListener;
import dev.shuttle.server.Handler;
import dev.shuttle.server.ServerLimits;
import dev.shuttle.server.ServerStats;
import dev.shuttle.server.ServerTimeouts;
import dev.shuttle.server.io.BufferPool;
import dev.shuttle.server.io.ReadinessWatcher;
import dev.shuttle.server.io.WriteWatchdog;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The HTTP/1.1 engine behind {@code HttpServer}: wires the acceptor, the readiness watcher, the write watchdog, the
 * buffer pools and the connection registry, and runs graceful shutdown. {@code HttpServer} guards the lifecycle, so
 * {@link #start} and {@link #shutdown} are each called once, in that order.
 */
public final class Http1Server {
    private static final System.Logger LOG = System.getLogger(Http1Server.class.getName());

    /**
     * Read buffer size: a typical request head fits in one read (heads are parsed incrementally, so a larger head
     * only costs more reads, never a larger buffer).
     */
    private static final int READ_BUFFER_BYTES = 16 * 1024;
    /** Write buffer size: a head plus a first body chunk of 8 KiB leave in one write. */
    private static final int WRITE_BUFFER_BYTES = 16 * 1024;
    /** Free buffers kept per pool: enough for a burst of active connections, bounded so idle servers stay small. */
    private static final int POOLED_BUFFERS = 256;

    /** Everything the engine takes from the builder. */
    public record Config(Handler handler, ServerLimits limits, ServerTimeouts timeouts, ConnectionListener listener,
                         boolean parking) {
        public Config {
            Objects.requireNonNull(handler, "handler");
            Objects.requireNonNull(limits, "limits");
            Objects.requireNonNull(timeouts, "timeouts");
            Objects.requireNonNull(listener, "listener");
        }
    }

    private final Config config;
    private final LongSupplier nanoClock;
    private final KeepAliveTurn keepAliveTurn;
    private final ConnectionRegistry registry;

    // Set by start(), read after; HttpServer's lifecycle lock orders start() before shutdown().
    private volatile ServerSocketChannel serverChannel;
    private volatile InetSocketAddress localAddress;
    private ServerContext context;
    private ReadinessWatcher watcher;
    private WriteWatchdog watchdog;
    private Thread acceptorThread;

    public Http1Server(Config config) {
        this(config, System::nanoTime);
    }

    Http1Server(Config config, LongSupplier nanoClock) {
        this(config, nanoClock, KeepAliveTurn.YIELD);
    }

    /** For tests that stage what happens between a response and parking. */
    Http1Server(Config config, LongSupplier nanoClock, KeepAliveTurn keepAliveTurn) {
        this.config = config;
        this.nanoClock = nanoClock;
        this.keepAliveTurn = keepAliveTurn;
        this.registry = new ConnectionRegistry(config.listener(), config.limits().maxConnections());
    }

    public void start(InetSocketAddress address, int backlog) throws IOException {
        ServerSocketChannel channel = ServerSocketChannel.open();
        try {
            channel.bind(address, backlog);
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        localAddress = (InetSocketAddress) channel.getLocalAddress();
        serverChannel = channel;
        watcher = new ReadinessWatcher("shuttle-watcher-" + localAddress.getPort(), nanoClock);
        context = new ServerContext(config.handler(), config.limits(), config.timeouts(), config.parking(), registry,
                watcher, new BufferPool(READ_BUFFER_BYTES, POOLED_BUFFERS),
                new BufferPool(WRITE_BUFFER_BYTES, POOLED_BUFFERS), nanoClock, keepAliveTurn);
        watchdog = new WriteWatchdog(config.timeouts().write(), nanoClock, registry::openConnections);
        watcher.start();
        watchdog.start();
        // A platform thread that is not a daemon: a running server keeps the JVM alive, as a server should.
        acceptorThread = Thread.ofPlatform().name("shuttle-acceptor-" + localAddress.getPort())
                .start(new Acceptor(channel, context));
    }

    public InetSocketAddress localAddress() {
        return localAddress;
    }

    public ServerStats stats() {
        return registry.stats();
    }

    /**
     * Stop accepting; close new, parked and idle connections; let active ones finish until the deadline; then close
     * the rest.
     */
    public boolean shutdown(Duration deadline) throws InterruptedException {
        long deadlineNanos = System.nanoTime() + deadline.toNanos();
        context.draining.set(true);
        try {
            serverChannel.close();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "closing the server channel failed", e);
        }
        acceptorThread.interrupt(); // in case it waits for a connection permit
        acceptorThread.join();
        watcher.close(); // closes NEW and PARKED connections, refuses further parks
        for (Http1Connection connection : List.copyOf(registry.openConnections())) {
            connection.closeIfIdle();
        }
        boolean graceful = registry.awaitAllClosed(deadlineNanos);
        if (!graceful) {
            List<Http1Connection> remaining = List.copyOf(registry.openConnections());
            LOG.log(Level.INFO, "shutdown deadline passed; closing {0} active connections", remaining.size());
            remaining.forEach(Http1Connection::closeNow);
        }
        watchdog.close();
        return graceful;
    }

    /** The open connections right now (for tests and diagnostics). */
    Collection<Http1Connection> connections() {
        return List.copyOf(registry.openConnections());
    }
}
