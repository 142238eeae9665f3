package dev.shuttle.client.pool;

import dev.shuttle.client.Origin;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/** The pool's state for one route: an origin, direct or through a proxy. Every mutable field is guarded by the pool's lock. */
final class OriginPool {
    final Route route;
    /** Of {@link #route}. */
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
    /** Leases out: one per HTTP/1.1 connection in use, one per stream on multiplexed connections. */
    int leased;
    int dialing;
    /** Dials whose connection is open but held back until it could answer; counted in {@link #dialing}. */
    final List<HeldDial> held = new ArrayList<>(0);
    /** Connections this origin's dials have opened so far: the serial of the latest ({@link PoolEntry#serial}). */
    long opened;
    /** Open multiplexed (HTTP/2) connections, LEASED or IDLE: where a request looks first for a free stream. */
    final List<PoolEntry> multiplexed = new ArrayList<>(1);
    /**
     * The origin spoke HTTP/2 on the last connection dialed to it (or is configured for prior knowledge): requests
     * that find no free stream wait for a dial in flight instead of each starting one (coalescing).
     */
    boolean knownMultiplexed;
    /** Streams the last multiplexed connection to this origin allowed: what a dial in flight is expected to carry. */
    int expectedStreams = DEFAULT_EXPECTED_STREAMS;

    /**
     * Streams assumed for a multiplexed connection before its peer said otherwise: 100, the limit RFC 9113 asks
     * servers not to go below, and what Go's transport assumes before the server's SETTINGS arrive.
     */
    static final int DEFAULT_EXPECTED_STREAMS = 100;

    OriginPool(Route route, long idleTimeoutNanos) {
        this.route = route;
        this.origin = route.origin();
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

    /** A LEASED multiplexed connection that can take one more stream now, or null. */
    PoolEntry multiplexedWithRoom() {
        for (int i = 0; i < multiplexed.size(); i++) {
            PoolEntry entry = multiplexed.get(i);
            if (entry.state == PoolEntry.State.LEASED && entry.streams < entry.connection.streamCapacity()) {
                return entry;
            }
        }
        return null;
    }

    boolean isUnused() {
        return total == 0 && waiters.isEmpty() && idle.isEmpty() && draining.isEmpty();
    }
}
