package dev.shuttle.server.core;

import dev.shuttle.server.ConnectionListener;
import dev.shuttle.server.Handler;
import dev.shuttle.server.ServerLimits;
import dev.shuttle.server.ServerStats;
import dev.shuttle.server.ServerTimeouts;
import dev.shuttle.transport.BufferPool;
import dev.shuttle.transport.ReadinessWatcher;
import dev.shuttle.transport.WriteWatchdog;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;
import javax.net.ssl.SSLContext;

/**
 * The engine behind {@code HttpServer}: wires the acceptor, the readiness watcher, the write watchdog, the buffer pool
 * and the connection registry, and runs graceful shutdown. {@code HttpServer} guards the lifecycle, so
 * {@link #start} is called once, before {@link #shutdown}; shutdown is called again after an interrupted one, and
 * each of its steps may run twice.
 */
public final class ServerEngine {
    private static final System.Logger LOG = System.getLogger(ServerEngine.class.getName());

    /**
     * Free buffers kept: enough for a burst of active connections (each borrows a read and a write buffer, and TLS
     * record buffers while bytes move), bounded so an idle server stays small.
     */
    private static final int POOLED_BUFFERS = 512;

    /** Everything the engine takes from the builder. */
    public record Config(Handler handler, ServerLimits limits, ServerTimeouts timeouts, ConnectionListener listener,
                         boolean parking, SSLContext tls) {
        public Config {
            Objects.requireNonNull(handler, "handler");
            Objects.requireNonNull(limits, "limits");
            Objects.requireNonNull(timeouts, "timeouts");
            Objects.requireNonNull(listener, "listener");
        }
    }

    private final Config config;
    private final LongSupplier nanoClock;
    private final SessionFactory sessions;
    private final ConnectionRegistry registry;

    // Set by start(), read after; HttpServer's lifecycle lock orders start() before shutdown().
    private volatile ServerSocketChannel serverChannel;
    private volatile InetSocketAddress localAddress;
    private ServerContext context;
    private ReadinessWatcher watcher;
    private WriteWatchdog watchdog;
    private Thread acceptorThread;

    public ServerEngine(Config config, SessionFactory sessions) {
        this(config, sessions, System::nanoTime);
    }

    public ServerEngine(Config config, SessionFactory sessions, LongSupplier nanoClock) {
        this.config = config;
        this.nanoClock = nanoClock;
        this.sessions = sessions;
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
        context = new ServerContext(config.handler(), config.limits(), config.timeouts(), config.parking(),
                config.tls(), registry, watcher, new BufferPool(POOLED_BUFFERS), nanoClock, sessions);
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
     * Stop accepting; hand every parked connection back (it closes, after a goodbye where the protocol has one); close
     * idle ones; let active ones finish until the deadline; then close the rest.
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
        for (ServerConnection connection : List.copyOf(registry.openConnections())) {
            connection.shutdownGracefully(); // HTTP/2: GOAWAY, and close once the streams end
        }
        watcher.close(); // hands NEW and PARKED connections back with SHUTDOWN, refuses further parks
        for (ServerConnection connection : List.copyOf(registry.openConnections())) {
            connection.closeIfIdle();
        }
        boolean graceful = registry.awaitAllClosed(deadlineNanos);
        if (!graceful) {
            List<ServerConnection> remaining = List.copyOf(registry.openConnections());
            LOG.log(Level.INFO, "shutdown deadline passed; closing {0} active connections", remaining.size());
            remaining.forEach(ServerConnection::closeNow);
        }
        watchdog.close();
        return graceful;
    }

    /** The open connections right now (for tests and diagnostics). */
    public Collection<ServerConnection> connections() {
        return List.copyOf(registry.openConnections());
    }

    /** The engine's buffer pool (for tests); null before start. */
    public BufferPool buffers() {
        return context == null ? null : context.buffers;
    }
}
