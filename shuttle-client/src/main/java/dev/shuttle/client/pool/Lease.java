package dev.shuttle.client.pool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One checkout of a connection from the pool, for one exchange. Released exactly once, with
 * {@link #release(boolean)}: a second release throws, so a connection can never be handed to the pool twice. Between
 * the two, the exchange (and then a drain) owns the connection.
 */
public final class Lease {
    /** CAS on {@link #released} without an AtomicBoolean per lease (one object less per request). */
    private static final VarHandle RELEASED;

    static {
        try {
            RELEASED = MethodHandles.lookup().findVarHandle(Lease.class, "released", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ConnectionPool pool;
    final PoolEntry entry;
    private final boolean reused;
    private final boolean wasIdle;
    private final long idleNanos;
    private final boolean afterDrain;
    private final boolean freshFromDial;
    /** Set once, by the first release; any thread. */
    private volatile boolean released;

    Lease(ConnectionPool pool, PoolEntry entry, boolean reused, boolean wasIdle, long idleNanos, boolean afterDrain,
          boolean freshFromDial) {
        this.pool = pool;
        this.entry = entry;
        this.reused = reused;
        this.wasIdle = wasIdle;
        this.idleNanos = idleNanos;
        this.afterDrain = afterDrain;
        this.freshFromDial = freshFromDial;
    }

    public PooledConnection connection() {
        return entry.connection;
    }

    /** The connection carried an exchange before this one. */
    public boolean reused() {
        return reused;
    }

    /** Taken from the idle list. */
    public boolean wasIdle() {
        return wasIdle;
    }

    public long idleNanos() {
        return idleNanos;
    }

    /** Handed over straight from a background drain. */
    public boolean afterDrain() {
        return afterDrain;
    }

    /** Dialed for a waiting request and handed over at once: its first byte time measures the dial cost. */
    public boolean freshFromDial() {
        return freshFromDial;
    }

    /** When the connection's dial started, on the pool's clock. */
    public long dialStartNanos() {
        return entry.dialStartNanos;
    }

    /** What the pool learned about this connection's origin. */
    public CostModel costs() {
        return entry.origin.costs;
    }

    public ConnectionPool pool() {
        return pool;
    }

    /**
     * The exchange is over and the rest of the body is being drained in the background: requests may now wait for
     * this connection (hand-off). Returns false when the pool is closed: the caller must not drain, and releases the
     * lease with {@code reusable = false}.
     */
    public boolean startDrain(DrainProgress progress) {
        if (released) {
            throw new IllegalStateException("lease already released: " + entry);
        }
        return pool.startDrain(this, progress);
    }

    /**
     * Gives the connection back: to a waiting request or the idle list when {@code reusable}, else closes it.
     *
     * @throws IllegalStateException on a second release
     */
    public void release(boolean reusable) {
        if (!RELEASED.compareAndSet(this, false, true)) {
            throw new IllegalStateException("lease released twice: " + entry);
        }
        pool.release(this, reusable);
    }

    /** For a lease delivered to a request that gave up at that moment: the pool takes it back itself. */
    void markReleasedForAbandon() {
        if (!RELEASED.compareAndSet(this, false, true)) {
            throw new IllegalStateException("lease released twice: " + entry);
        }
    }

    public boolean isReleased() {
        return released;
    }

    @Override
    public String toString() {
        return "Lease[" + entry.connection.id() + (reused ? " reused" : " new") + (released ? " released" : "")
                + "]";
    }
}
