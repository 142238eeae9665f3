package dev.shuttle.server.http1;

import dev.shuttle.server.Handler;
import dev.shuttle.server.ServerLimits;
import dev.shuttle.server.ServerTimeouts;
import dev.shuttle.server.io.BufferPool;
import dev.shuttle.server.io.ReadinessWatcher;
import dev.shuttle.wire.http1.Http1Limits;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * What every connection of one server shares: configuration, the registry, the watcher, the buffer pools and the
 * clock. Immutable apart from the {@code draining} flag, which shutdown sets once.
 */
final class ServerContext {
    final Handler handler;
    final ServerLimits limits;
    final Http1Limits http1Limits;
    final ServerTimeouts timeouts;
    final long headerReadNanos;
    final long bodyReadMillis;
    final long idleNanos;
    final boolean parking;
    final ConnectionRegistry registry;
    final ReadinessWatcher watcher;
    final BufferPool readBuffers;
    final BufferPool writeBuffers;
    final LongSupplier nanoClock;
    /** What a connection does between two looks for its next request before parking; {@link KeepAliveTurn#YIELD}. */
    final KeepAliveTurn keepAliveTurn;
    /** Set once when graceful shutdown begins: connections finish their exchange and close instead of idling. */
    final AtomicBoolean draining = new AtomicBoolean();

    ServerContext(Handler handler, ServerLimits limits, ServerTimeouts timeouts, boolean parking,
                  ConnectionRegistry registry, ReadinessWatcher watcher, BufferPool readBuffers,
                  BufferPool writeBuffers, LongSupplier nanoClock, KeepAliveTurn keepAliveTurn) {
        this.handler = handler;
        this.limits = limits;
        this.http1Limits = limits.http1Limits();
        this.timeouts = timeouts;
        this.headerReadNanos = timeouts.headerRead().toNanos();
        this.bodyReadMillis = Math.max(1, timeouts.bodyRead().toMillis());
        this.idleNanos = timeouts.idle().toNanos();
        this.parking = parking;
        this.registry = registry;
        this.watcher = watcher;
        this.readBuffers = readBuffers;
        this.writeBuffers = writeBuffers;
        this.nanoClock = nanoClock;
        this.keepAliveTurn = keepAliveTurn;
    }

    boolean draining() {
        return draining.get();
    }

    long now() {
        return nanoClock.getAsLong();
    }
}
