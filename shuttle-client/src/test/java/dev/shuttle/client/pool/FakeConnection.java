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

    /** Stands in for an HTTP/2 connection (one stream at a time here): the pool checks it on checkout, under its lock. */
    volatile boolean multiplexed;

    @Override
    public boolean isMultiplexed() {
        return multiplexed;
    }

    /** Streams at once when multiplexed. */
    volatile int streamCapacity = 1;

    @Override
    public int streamCapacity() {
        return streamCapacity;
    }

    volatile boolean watched;
    /** What {@link #unwatch()} answers: false stages readiness seen by the watcher. */
    volatile boolean quietWhileWatched = true;
    volatile Runnable onWake;
    volatile java.io.IOException abortReason;

    @Override
    public boolean watch(Runnable onWake) {
        this.onWake = onWake;
        watched = true;
        return true;
    }

    @Override
    public boolean unwatch() {
        watched = false;
        return quietWhileWatched;
    }

    @Override
    public void abort(java.io.IOException reason) {
        abortReason = reason;
        closed = true;
    }

    /** Runs once when the connection is closed (the test stages something at that moment). */
    volatile Runnable onClose;

    @Override
    public void close() {
        closed = true;
        Runnable action = onClose;
        onClose = null;
        if (action != null) {
            action.run();
        }
    }

    @Override
    public String toString() {
        return "Fake[" + id + "]";
    }
}
