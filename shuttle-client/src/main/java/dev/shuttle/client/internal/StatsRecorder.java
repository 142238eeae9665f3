package dev.shuttle.client.internal;

import dev.shuttle.client.ClientStats;
import dev.shuttle.client.DrainOutcome;
import dev.shuttle.client.Origin;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The client's counters. Recording is lock-free (LongAdders) because it sits on every request's path; a snapshot
 * reads each counter once. Thread-safe.
 */
public final class StatsRecorder {
    /** Gauges the pool reports for one origin when a snapshot is taken. */
    public record Gauges(int idle, int leased, int draining) {
        public static final Gauges ZERO = new Gauges(0, 0, 0);

        /** Both together: an origin reached directly and through a proxy. */
        public Gauges plus(Gauges other) {
            return new Gauges(idle + other.idle, leased + other.leased, draining + other.draining);
        }
    }

    private static final class OriginCounters {
        final LongAdder opened = new LongAdder();
        final LongAdder closed = new LongAdder();
        final LongAdder requests = new LongAdder();
        final LongAdder reused = new LongAdder();
    }

    private final LongAdder requests = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder bytesDiscarded = new LongAdder();
    private final Map<DrainOutcome, LongAdder> drains = new EnumMap<>(DrainOutcome.class);
    private final ConcurrentHashMap<Origin, OriginCounters> origins = new ConcurrentHashMap<>();
    /** Counters of origins the pool has forgotten, folded into the totals. */
    private final LongAdder retiredOpened = new LongAdder();
    private final LongAdder retiredClosed = new LongAdder();
    private final LongAdder retiredReused = new LongAdder();

    public StatsRecorder() {
        for (DrainOutcome outcome : DrainOutcome.values()) {
            drains.put(outcome, new LongAdder());
        }
    }

    private OriginCounters origin(Origin origin) {
        return origins.computeIfAbsent(origin, o -> new OriginCounters());
    }

    /** A call to {@code send}. */
    public void request() {
        requests.increment();
    }

    /** One attempt sent to {@code origin}, on a reused connection or not. */
    public void attempt(Origin origin, boolean reused) {
        OriginCounters counters = origin(origin);
        counters.requests.increment();
        if (reused) {
            counters.reused.increment();
        }
    }

    public void retry() {
        retries.increment();
    }

    public void connectionOpened(Origin origin) {
        origin(origin).opened.increment();
    }

    public void connectionClosed(Origin origin) {
        origin(origin).closed.increment();
    }

    /**
     * The pool forgot {@code origin} (nothing open, unused for the idle timeout): its counters leave the per-origin map,
     * which would otherwise grow with every origin a long-lived client ever talked to, and stay in the totals. Called
     * under the pool's lock, as every per-origin count is, so none is lost.
     */
    public void forgetOrigin(Origin origin) {
        OriginCounters counters = origins.remove(origin);
        if (counters != null) {
            retiredOpened.add(counters.opened.sum());
            retiredClosed.add(counters.closed.sum());
            retiredReused.add(counters.reused.sum());
        }
    }

    /** Origins with counters of their own right now (for tests). */
    public int originCount() {
        return origins.size();
    }

    public void drain(DrainOutcome outcome, long discarded) {
        drains.get(outcome).increment();
        if (discarded > 0) {
            bytesDiscarded.add(discarded);
        }
    }

    /** A snapshot, with the pool's gauges and hand-off counts (the pool keeps those itself). */
    public ClientStats snapshot(Map<Origin, Gauges> gauges, long handOffWaits, long handOffDials) {
        Map<Origin, ClientStats.OriginStats> perOrigin = new HashMap<>();
        long opened = retiredOpened.sum();
        long closed = retiredClosed.sum();
        long reused = retiredReused.sum();
        for (Map.Entry<Origin, OriginCounters> entry : origins.entrySet()) {
            OriginCounters c = entry.getValue();
            Gauges g = gauges.getOrDefault(entry.getKey(), Gauges.ZERO);
            ClientStats.OriginStats stats = new ClientStats.OriginStats(c.opened.sum(), c.closed.sum(),
                    c.requests.sum(), c.reused.sum(), g.idle(), g.leased(), g.draining());
            perOrigin.put(entry.getKey(), stats);
            opened += stats.connectionsOpened();
            closed += stats.connectionsClosed();
            reused += stats.reusedRequests();
        }
        Map<DrainOutcome, Long> drainCounts = new EnumMap<>(DrainOutcome.class);
        drains.forEach((outcome, adder) -> drainCounts.put(outcome, adder.sum()));
        return new ClientStats(requests.sum(), reused, retries.sum(), opened, closed, drainCounts,
                bytesDiscarded.sum(), handOffWaits, handOffDials, perOrigin);
    }
}
