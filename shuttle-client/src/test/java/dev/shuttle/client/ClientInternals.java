package dev.shuttle.client;

import dev.shuttle.client.pool.ConnectionPool;
import dev.shuttle.client.testing.Await;

/** Test access to a client's internals, for tests in any package. */
public final class ClientInternals {
    private ClientInternals() {
    }

    @SuppressWarnings("exports") // test code reaching into a non-exported package on purpose
    public static ConnectionPool pool(HttpClient client) {
        return client.core().pool;
    }

    @SuppressWarnings("exports")
    public static dev.shuttle.client.internal.ClientSettings settings(HttpClient client) {
        return client.core().settings;
    }

    @SuppressWarnings("exports")
    public static dev.shuttle.transport.BufferPool buffers(HttpClient client) {
        return client.core().buffers;
    }

    /**
     * Waits until every exchange and drain has settled, then checks that every checkout was released exactly once
     * (a second release would have thrown; a missing one keeps the counts apart).
     */
    public static void awaitSettled(HttpClient client) throws InterruptedException {
        ConnectionPool pool = pool(client);
        try {
            Await.until("pool quiet (no lease, drain or dial left)", pool::isQuiet);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + ": " + pool, e);
        }
        if (pool.checkouts() != pool.releases()) {
            throw new AssertionError("checkouts " + pool.checkouts() + " != releases " + pool.releases());
        }
    }
}
