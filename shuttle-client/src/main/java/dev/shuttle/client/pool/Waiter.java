package dev.shuttle.client.pool;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.internal.TaskScheduler;
import java.io.IOException;
import java.util.concurrent.locks.Condition;

/**
 * A request that found no idle connection and waits for one: from its own dial, from another request releasing
 * one, from a drain it chose to wait for, or from any dial that completes while nobody else waits (Go's
 * {@code wantConn}). Waiters of an origin are served in FIFO order. All mutable fields are guarded by the pool's lock.
 */
final class Waiter {
    final Condition ready;
    /**
     * A retry: only a connection that never carried a request will do, or, on a multiplexed origin, one opened after
     * the connection that failed it (serial at least {@link #firstFreshSerial}): a burst of retries shares the new
     * connection.
     */
    final boolean freshOnly;
    /**
     * The lowest serial of a multiplexed connection a retry may take a stream on: one more than that of the connection
     * its request failed on, or, when that is not known, the serial the origin's next connection will have.
     */
    final long firstFreshSerial;
    final ClientTrace trace;
    /** The caller's deadline on the pool's clock. */
    final long deadline;

    boolean done;
    Lease lease;
    IOException failure;
    /** A dial started on behalf of this waiter is in flight. */
    boolean dialing;
    /** The draining connection this waiter chose to wait for instead of dialing (hand-off), or null. */
    PoolEntry awaitedDrain;
    /** Counts on a spare dial in flight (one whose own request was served otherwise) instead of dialing. */
    boolean awaitsSpare;
    /** The hand-off rule's grace or overrun timer, until it runs or the pool closes; else null. */
    TaskScheduler.Scheduled graceTimer;

    Waiter(Condition ready, boolean freshOnly, long firstFreshSerial, ClientTrace trace, long deadline) {
        this.ready = ready;
        this.freshOnly = freshOnly;
        this.firstFreshSerial = firstFreshSerial;
        this.trace = trace;
        this.deadline = deadline;
    }

    /** Covered: something is already on its way that may serve it, so no new dial is needed for it. */
    boolean covered() {
        return dialing || awaitedDrain != null || awaitsSpare;
    }

    /** Gives up the drain this waiter claimed, if any. */
    void unclaim() {
        if (awaitedDrain != null) {
            awaitedDrain.claimedBy = null;
            awaitedDrain = null;
        }
    }

    /** Whether this waiter may take a stream of (or the whole) {@code entry}. */
    boolean accepts(PoolEntry entry) {
        return !freshOnly || entry.uses == 0 || entry.serial >= firstFreshSerial;
    }
}
