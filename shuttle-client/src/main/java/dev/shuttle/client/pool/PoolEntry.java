package dev.shuttle.client.pool;

/**
 * The pool's record of one open connection. All mutable fields are guarded by the pool's lock.
 *
 * <p>Lifecycle ({@link State}): LEASED → IDLE | DRAINING | CLOSED; DRAINING → IDLE | LEASED (handed straight to a
 * waiting request) | CLOSED; IDLE → LEASED | CLOSED. CLOSED is final. A dialed connection starts LEASED (handed to a
 * request) or IDLE (nobody waits for it any more).
 *
 * <p>A multiplexed (HTTP/2) entry is LEASED while it carries at least one stream, however many leases share it,
 * and IDLE (on the idle list, subject to the same limits and expiry) when it carries none. It never DRAINs: closing an
 * unread HTTP/2 body resets its stream.
 */
final class PoolEntry {
    enum State { LEASED, IDLE, DRAINING, CLOSED }

    final PooledConnection connection;
    final OriginPool origin;
    /** Monotonic nanos when its dial started. */
    final long dialStartNanos;
    /** Its place among the connections its origin opened (1, 2, ...): a retry takes only one opened after it queued. */
    long serial;

    State state = State.LEASED;
    /** Exchanges started on it so far. */
    int uses;
    /** When it last entered IDLE. */
    long idleSince;
    /** Set while DRAINING. */
    DrainProgress drain;
    /** While DRAINING: the request waiting for this drain instead of dialing, if any. */
    Waiter claimedBy;
    /** While IDLE: handed to the readiness watcher (it has been idle a while). */
    boolean watched;
    /** Multiplexed connections only: leases (streams) it carries now; LEASED while above 0, else IDLE or CLOSED. */
    int streams;

    PoolEntry(PooledConnection connection, OriginPool origin, long dialStartNanos) {
        this.connection = connection;
        this.origin = origin;
        this.dialStartNanos = dialStartNanos;
    }

    void transition(State from, State to) {
        if (state != from) {
            throw new IllegalStateException("state: " + state + " (expected " + from + " for → " + to + ") of "
                    + connection);
        }
        state = to;
    }

    @Override
    public String toString() {
        return "PoolEntry[" + connection.id() + " " + state + "]";
    }
}
