package dev.shuttle.client.internal;

import dev.shuttle.transport.ReadinessWatcher;

/**
 * The readiness watcher every client in the JVM shares for its idle connections: one daemon platform thread, started
 * when the first connection is watched, idle in {@code epoll_wait} otherwise. Shared rather than one per client
 * because clients are sometimes made per call (seed 003), and a thread per client would be the cost Shuttle avoids
 * per connection. Deadlines are not used: the pool's own cleanup expires idle connections.
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
