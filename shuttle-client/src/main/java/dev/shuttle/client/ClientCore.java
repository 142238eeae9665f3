package dev.shuttle.client;

import dev.shuttle.client.connect.RealDialer;
import dev.shuttle.client.drain.Drainer;
import dev.shuttle.client.exchange.ExchangeContext;
import dev.shuttle.client.internal.ClientSettings;
import dev.shuttle.client.internal.ClientWatcher;
import dev.shuttle.client.internal.Scheduler;
import dev.shuttle.client.internal.StatsRecorder;
import dev.shuttle.client.pool.ConnectionPool;
import dev.shuttle.client.proxy.ProxyRoutes;
import dev.shuttle.transport.BufferPool;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Everything a client is, apart from the public face: kept separate so that the leak guard of {@link HttpClient} can
 * refer to it without keeping the client reachable. Thread-safe.
 */
final class ClientCore {
    private static final System.Logger LOG = System.getLogger(HttpClient.class.getName());
    /**
     * Free buffers kept for reuse (17 KiB each: read buffers, request write buffers, TLS records); more active
     * exchanges than this allocate and drop their own.
     */
    private static final int POOLED_BUFFERS = 64;

    final ClientSettings settings;
    final StatsRecorder stats = new StatsRecorder();
    final Scheduler scheduler = new Scheduler("shuttle-client-timer");
    final ConnectionPool pool;
    final Drainer drainer;
    /** Each request's route: direct, or through the proxy the client's selector names. */
    final ProxyRoutes routes;
    /**
     * Every call's interceptors: the application's, then the client's own for the features that are on (each
     * absent when off, so it costs nothing); the chain ends in the call's exchanges.
     */
    final List<Interceptor> callInterceptors;
    /** What every untraced call's exchanges need: shared, since nothing in it is the call's own. */
    final ExchangeContext untracedContext;
    private final AtomicBoolean closed = new AtomicBoolean();

    final BufferPool buffers = new BufferPool(POOLED_BUFFERS);

    ClientCore(ClientSettings settings) {
        this.settings = settings;
        RealDialer dialer = new RealDialer(settings, buffers, ClientWatcher.shared(),
                ProxyChallenges.of(settings.proxyAuthenticator()), scheduler);
        this.routes = new ProxyRoutes(settings.proxySelector());
        this.pool = new ConnectionPool(settings.pool(), settings.drainPolicy(), dialer, settings.nanoClock(),
                scheduler, stats);
        this.drainer = new Drainer(settings.drainPolicy(), settings.nanoClock());
        this.callInterceptors = CallInterceptors.of(settings);
        this.untracedContext = new ExchangeContext(settings, ClientTrace.NONE, drainer, stats, scheduler);
    }

    Response send(Request request) throws IOException {
        if (closed.get()) {
            throw new IllegalStateException("client closed");
        }
        return new RealCall(this, request).execute();
    }

    /** A call for {@link #sendAsync}: {@code send}, with or without reading the body. */
    interface AsyncCall<T> {
        T call() throws IOException;

        /** The future was cancelled: stop the call running on {@code thread}. Default: interrupt it. */
        default void cancel(Thread thread) {
            thread.interrupt();
        }
    }

    /**
     * Runs {@code call} on a virtual thread of its own; cancelling the future interrupts it.
     *
     * @param orphan what to do with a result nobody will see (the future was cancelled meanwhile): close it
     */
    <T> CompletableFuture<T> sendAsync(AsyncCall<T> call, Consumer<T> orphan) {
        CompletableFuture<T> future = new CompletableFuture<>();
        Thread thread = Thread.ofVirtual().name("shuttle-send").unstarted(() -> {
            try {
                T result = call.call();
                if (!future.complete(result)) {
                    orphan.accept(result); // cancelled meanwhile: nobody will close it
                }
            } catch (Throwable t) {
                future.completeExceptionally(t);
            }
        });
        future.whenComplete((response, error) -> {
            if (future.isCancelled()) {
                call.cancel(thread);
            }
        });
        thread.start();
        return future;
    }

    ClientStats stats() {
        return stats.snapshot(pool.gauges(), pool.handOffWaits(), pool.handOffDials());
    }

    void close() {
        if (closed.compareAndSet(false, true)) {
            pool.close();
        }
    }

    boolean isClosed() {
        return closed.get();
    }

    /** The leak guard's action for the client; refers to this core only. */
    Runnable leakAction() {
        return () -> {
            if (!closed.get()) {
                LOG.log(System.Logger.Level.WARNING, "HttpClient was never closed; closing its "
                        + pool.idleCount() + " idle connections");
                close();
            }
        };
    }
}
