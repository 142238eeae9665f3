package dev.shuttle.client.pool;

import dev.shuttle.client.HandOffDecision;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Applies the hand-off rule for a request of an HTTP/1.1 origin that found nothing idle: gathers the facts,
 * asks {@link HandOffPlanner} (pure, and traced by the caller), and sets the decision in motion: claims the draining
 * connection expected to end first, starts a dial, counts the request on a spare dial in flight, or arms a timer. A
 * claimed drain that overruns its estimate by a dial's time, and a first drain that outlasts a short grace, make the
 * request dial as well, from a timer on the scheduler; closing the pool cancels those timers.
 *
 * <p>Every method but {@link #graceOver} runs under the pool's lock; {@link #graceOver} runs on the scheduler's
 * thread and takes it.
 */
final class HandOffs {
    private final ConnectionPool pool;
    private final ReentrantLock lock;
    /**
     * Guarded by lock: waiters with a grace or overrun timer pending ({@link Waiter#graceTimer}), served or not, of
     * every origin (maintenance may forget an origin before its timers ran): close cancels them.
     */
    private final List<Waiter> timed = new ArrayList<>(0);

    /** Any thread: requests that waited for a drain; dialed because the drain was expected to be slower. */
    final AtomicLong waits = new AtomicLong();
    final AtomicLong dials = new AtomicLong();
    /** Any thread: dials started beside a drain wait, and requests that waited for a spare dial on its way. */
    final AtomicLong spareDials = new AtomicLong();
    final AtomicLong spareWaits = new AtomicLong();

    HandOffs(ConnectionPool pool) {
        this.pool = pool;
        this.lock = pool.lock;
    }

    /**
     * Applies the hand-off rule ({@link HandOffPlanner}) for a waiter of an HTTP/1.1 origin: claims the drain it
     * waits for, starts its dial, or counts it on a spare dial in flight, and returns the decision for the trace.
     */
    HandOffDecision planLocked(OriginPool origin, Waiter waiter, long now) {
        assert lock.isHeldByCurrentThread();
        PoolEntry drain = origin.soonestUnclaimedDrainLocked(now);
        CostModel costs = origin.costs;
        long expected = drain == null ? 0 : expectedDrainLocked(costs, drain.drain, now);
        long spareWait = costs.spareWaitNanos();
        HandOffDecision decision = HandOffPlanner.decide(new HandOffPlanner.Facts(drain != null, expected,
                origin.longestRunningDrainLocked(now), costs.drainsSeen(), costs.typicalDrainNanos(),
                costs.lastDrainGaveUp(), costs.dialCostNanos(), costs.rawDialCostNanos(), spareWait,
                origin.spareDialsFreeLocked() > 0));
        switch (decision.kind()) {
            case DIAL -> {
                if (drain != null) {
                    dials.incrementAndGet();
                }
            }
            case WAIT_FOR_DRAIN -> {
                claimLocked(drain, waiter);
                // A drain that overruns its estimate is no longer "about to end": once the overrun has cost as much
                // as a real dial (at least the spare wait), dial as well — the ski-rental bound, at most twice the
                // better choice — instead of paying up to the cap.
                scheduleGraceLocked(origin, waiter, expected + Math.max(spareWait, costs.rawDialCostNanos()));
            }
            case WAIT_FOR_DRAIN_AND_DIAL_SPARE -> {
                claimLocked(drain, waiter);
                spareDials.incrementAndGet();
                // Whichever is first serves this request; the other is the spare.
                pool.dials.startDialLocked(origin, waiter);
            }
            case WAIT_FOR_DRAIN_THEN_DIAL -> {
                claimLocked(drain, waiter);
                scheduleGraceLocked(origin, waiter, decision.spareWait().toNanos());
            }
            case WAIT_FOR_SPARE -> {
                // Not claiming the drain: a drained connection goes to the first waiter anyway, and this one is
                // first unless others queue behind a busy origin.
                waiter.awaitsSpare = true;
                spareWaits.incrementAndGet();
            }
        }
        return decision;
    }

    private void claimLocked(PoolEntry drain, Waiter waiter) {
        assert lock.isHeldByCurrentThread();
        waits.incrementAndGet();
        drain.claimedBy = waiter;
        waiter.awaitedDrain = drain;
    }

    /**
     * Expected nanoseconds until {@code progress}'s drain ends, or Long.MAX_VALUE when that is later than its time cap
     * allows (the drain will give up, so waiting for it is waiting for nothing).
     */
    long expectedDrainLocked(CostModel costs, DrainProgress progress, long now) {
        assert lock.isHeldByCurrentThread();
        long expected = costs.expectedDrainNanos(progress, now);
        long capLeft = pool.policy.maxTime().toNanos() - (now - progress.startNanos());
        return expected >= capLeft ? Long.MAX_VALUE : expected;
    }

    /** Arms {@code waiter}'s grace or overrun timer, listed so that closing the pool cancels it. */
    private void scheduleGraceLocked(OriginPool origin, Waiter waiter, long delayNanos) {
        assert lock.isHeldByCurrentThread();
        waiter.graceTimer = pool.scheduler.schedule(delayNanos, () -> graceOver(origin, waiter));
        timed.add(waiter);
    }

    /**
     * A request waited its grace for a drain of an origin with no drain history, or its drain overran the estimate by
     * the spare wait: if nothing served it meanwhile, it dials as well (and still takes the drained connection if
     * that comes first). Runs on the scheduler's thread.
     */
    private void graceOver(OriginPool origin, Waiter waiter) {
        lock.lock();
        try {
            waiter.graceTimer = null;
            timed.remove(waiter);
            if (!pool.isClosedLocked() && !waiter.done && !waiter.dialing) {
                pool.dials.startDialLocked(origin, waiter);
            }
        } finally {
            lock.unlock();
        }
    }

    /** The pool closes: cancels the grace and overrun timers, which would keep it reachable till they ran. */
    void cancelTimersLocked() {
        assert lock.isHeldByCurrentThread();
        for (Waiter waiter : timed) {
            waiter.graceTimer.cancel();
            waiter.graceTimer = null;
        }
        timed.clear();
    }
}
