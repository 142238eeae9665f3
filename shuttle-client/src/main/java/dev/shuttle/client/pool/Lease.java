package dev.shuttle.client.pool;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One checkout of a connection from the pool, for one exchange. Released exactly once, with
 * {@link #release(boolean)}: a second release throws, so a connection can never be handed to the pool twice. Between
 * the two, the exchange (and then a drain) owns the connection.
 *
 * <p>An abort from another thread (a call timeout, a close that gave up waiting for a read) belongs to the lease: it
 * closes the connection only while the lease still holds it. Release and abort compete for the same state by
 * compare-and-set, so an abort that comes just after the reader released the connection (now idle, or leased to
 * another call) does nothing, and a release after an abort returns the connection as not reusable.
 *
 * <pre>
 *   HELD --release--> RELEASED
 *   HELD --abort----> ABORTED --release (forced not reusable)--> RELEASED
 * </pre>
 */
public final class Lease {
    private static final int HELD = 0;
    private static final int ABORTED = 1;
    private static final int RELEASED = 2;
    /** CAS on {@link #state} without an AtomicInteger per lease (one object less per request). */
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Lease.class, "state", int.class);
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
    /** HELD, ABORTED or RELEASED; moves forward only, by CAS; any thread. */
    @SuppressWarnings("unused")
    private volatile int state;

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

    /** The route the connection serves: its origin, and the proxy it goes through. */
    public Route route() {
        return entry.origin.route;
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
        if (isReleased()) {
            throw new IllegalStateException("lease already released: " + entry);
        }
        return pool.startDrain(this, progress);
    }

    /**
     * Closes the connection from any thread if this lease still holds it; harmless afterwards.
     *
     * @return true when this call aborted the connection
     */
    public boolean abort(IOException reason) {
        if (STATE.compareAndSet(this, HELD, ABORTED)) {
            entry.connection.abort(reason);
            return true;
        }
        return false;
    }

    /**
     * Gives the connection back: to a waiting request or the idle list when {@code reusable} (and not aborted), else
     * closes it.
     *
     * @throws IllegalStateException on a second release
     */
    public void release(boolean reusable) {
        int from = markReleased();
        pool.release(this, reusable && from == HELD);
    }

    /** For a lease delivered to a request that gave up at that moment: the pool takes it back itself. */
    void markReleasedForAbandon() {
        markReleased();
    }

    private int markReleased() {
        while (true) {
            int current = (int) STATE.getVolatile(this);
            if (current == RELEASED) {
                throw new IllegalStateException("lease released twice: " + entry);
            }
            if (STATE.compareAndSet(this, current, RELEASED)) {
                return current;
            }
        }
    }

    public boolean isReleased() {
        return (int) STATE.getVolatile(this) == RELEASED;
    }

    /** Whether {@link #abort} closed the connection under this lease. */
    public boolean isAborted() {
        return (int) STATE.getVolatile(this) == ABORTED;
    }

    @Override
    public String toString() {
        return "Lease[" + entry.connection.id() + (reused ? " reused" : " new") + switch ((int) STATE.getVolatile(this)) {
            case ABORTED -> " aborted";
            case RELEASED -> " released";
            default -> "";
        } + "]";
    }
}
