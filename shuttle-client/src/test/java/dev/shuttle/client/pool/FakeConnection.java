package dev.shuttle.client.pool;

import dev.shuttle.client.Origin;
import java.net.InetSocketAddress;

/** A connection without a socket, for pool tests: health and closing are flags the test controls and reads. */
final class FakeConnection implements PooledConnection {
    private final long id;
    private final Origin origin;
    volatile boolean healthy = true;
    volatile boolean closed;
    volatile int idled;

    FakeConnection(long id, Origin origin) {
        this.id = id;
        this.origin = origin;
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public Origin origin() {
        return origin;
    }

    @Override
    public InetSocketAddress localAddress() {
        return new InetSocketAddress("127.0.0.1", 40000 + (int) id);
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return new InetSocketAddress("127.0.0.1", origin.port());
    }

    @Override
    public boolean isHealthy() {
        return healthy && !closed;
    }

    @Override
    public boolean isOpen() {
        return !closed;
    }

    @Override
    public void onIdle() {
        idled++;
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return "Fake[" + id + "]";
    }
}
