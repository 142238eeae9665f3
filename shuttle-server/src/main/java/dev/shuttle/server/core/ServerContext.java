package dev.shuttle.server.core;

import dev.shuttle.server.Handler;
import dev.shuttle.server.ServerLimits;
import dev.shuttle.server.ServerTimeouts;
import dev.shuttle.transport.BufferPool;
import dev.shuttle.transport.ReadinessWatcher;
import dev.shuttle.wire.http1.Http1Limits;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import javax.net.ssl.SSLContext;

/**
 * What every connection of one server shares: configuration, the registry, the watcher, the buffer pool, the clock
 * and the protocol sessions' factory. Immutable apart from the {@code draining} flag, which shutdown sets once.
 */
public final class ServerContext {
    public final Handler handler;
    public final ServerLimits limits;
    public final Http1Limits http1Limits;
    public final ServerTimeouts timeouts;
    public final long headerReadNanos;
    public final long bodyReadMillis;
    public final long idleNanos;
    public final long tlsHandshakeNanos;
    public final boolean parking;
    /** The server's TLS context, or null for a plaintext server. */
    public final SSLContext tls;
    final ConnectionRegistry registry;
    final ReadinessWatcher watcher;
    /** Read, write and TLS record buffers of active connections. */
    public final BufferPool buffers;
    public final LongSupplier nanoClock;
    final SessionFactory sessions;
    /** Set once when graceful shutdown begins: connections finish their exchange and close instead of idling. */
    final AtomicBoolean draining = new AtomicBoolean();
    final WakeHandOff wakes = new WakeHandOff(WakeHandOff.Starter.START);

    ServerContext(Handler handler, ServerLimits limits, ServerTimeouts timeouts, boolean parking, SSLContext tls,
                  ConnectionRegistry registry, ReadinessWatcher watcher, BufferPool buffers, LongSupplier nanoClock,
                  SessionFactory sessions) {
        this.handler = handler;
        this.limits = limits;
        this.http1Limits = http1Limits(limits);
        this.timeouts = timeouts;
        this.headerReadNanos = timeouts.headerRead().toNanos();
        this.bodyReadMillis = Math.max(1, timeouts.bodyRead().toMillis());
        this.idleNanos = timeouts.idle().toNanos();
        this.tlsHandshakeNanos = timeouts.tlsHandshake().toNanos();
        this.parking = parking;
        this.tls = tls;
        this.registry = registry;
        this.watcher = watcher;
        this.buffers = buffers;
        this.nanoClock = nanoClock;
        this.sessions = sessions;
    }

    /** The HTTP/1.1 codec's view of the server's limits. */
    public static Http1Limits http1Limits(ServerLimits limits) {
        return new Http1Limits(limits.maxRequestLineBytes(), limits.maxHeadBytes(), limits.maxHeaderCount(),
                limits.maxChunkLineBytes(), limits.maxTrailerBytes());
    }

    /** The readiness watcher, for code that holds a busy connection's channel there for a while. */
    public ReadinessWatcher watcher() {
        return watcher;
    }

    public boolean draining() {
        return draining.get();
    }

    public long now() {
        return nanoClock.getAsLong();
    }

    /** An HTTP/2 stream was registered (+1) or left the registry (-1). */
    public void streams(int delta) {
        registry.streams(delta);
    }

    /** Counts a request head that was parsed (handed to the handler, or rejected for its framing or size). */
    public void requestStarted() {
        registry.requestStarted();
    }
}
