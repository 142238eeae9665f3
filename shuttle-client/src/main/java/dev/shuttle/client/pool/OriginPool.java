package dev.shuttle.client.pool;

import dev.shuttle.client.Origin;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/** The pool's state for one origin. Every mutable field is guarded by the pool's lock. */
final class OriginPool {
    final Origin origin;
    final CostModel costs = new CostModel();
    final PeakConcurrency peak;

    /** Idle connections, most recently idle first (LIFO reuse; eviction takes the last). */
    final ArrayDeque<PoolEntry> idle = new ArrayDeque<>();
    /** Requests waiting for a connection, in arrival order. */
    final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    /** Connections being drained in the background. */
    final List<PoolEntry> draining = new ArrayList<>(2);
    /** Open connections (leased, idle, draining) plus dials in flight: what maxConnsPerHost bounds. */
    int total;
    int leased;
    int dialing;

    OriginPool(Origin origin, long idleTimeoutNanos) {
        this.origin = origin;
        this.peak = new PeakConcurrency(idleTimeoutNanos);
    }

    /** Concurrent demand right now: connections in use or draining, and requests still waiting. */
    int busy() {
        return leased + draining.size() + waiters.size();
    }

    /** A draining connection no waiter has claimed yet, the one that started first. */
    PoolEntry unclaimedDrain() {
        for (PoolEntry entry : draining) {
            if (entry.claimedBy == null) {
                return entry;
            }
        }
        return null;
    }

    boolean isUnused() {
        return total == 0 && waiters.isEmpty() && idle.isEmpty() && draining.isEmpty();
    }
}
