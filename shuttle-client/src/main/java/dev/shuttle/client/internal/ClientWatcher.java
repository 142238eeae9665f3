package dev.shuttle.client.internal;

import dev.shuttle.transport.ReadinessWatcher;

/**
 * The readiness watcher every client in the JVM shares for its idle connections: one daemon platform thread, started
 * when the first connection is watched, idle in {@code epoll_wait} otherwise. Shared rather than one per client
 * because clients are sometimes made per call (seed 003), and a thread per client would be the cost Shuttle avoids
 * per connection. Idle HTTP/1.1 connections are watched without a deadline (the pool's own cleanup expires them); a
 * parked HTTP/2 connection's deadline is its next PING.
 */
public final class ClientWatcher {
    private ClientWatcher() {
    }

    private static final class Holder {
        static final ReadinessWatcher WATCHER = start();

        private static ReadinessWatcher start() {
            ReadinessWatcher watcher = new ReadinessWatcher("shuttle-client-watcher", System::nanoTime);
            watcher.start();
            return watcher;
        }
    }

    public static ReadinessWatcher shared() {
        return Holder.WATCHER;
    }
}
