package dev.shuttle.client.pool;

import java.util.concurrent.locks.ReentrantLock;

/**
 * What the client has learned about one origin, to decide whether a request should wait for a draining connection
 * or dial a new one (hand-off rule).
 *
 * <p><b>Dial cost</b> is the extra latency a new connection adds to a request: the time from the start of a dial to
 * the first response byte on that fresh connection, minus the time from writing a request to its first response byte
 * on a reused one (medians of recent samples). Measuring to the first byte, not to the end of {@code connect()},
 * counts what a new connection really costs: the server's accept and set-up, a TLS handshake later, and a delay
 * anywhere on the path (a relay that holds new connections back shows up here, while {@code connect()} returns at
 * once). Before a reused exchange was seen, the fresh time alone is used, which overstates the cost and so favours
 * waiting. The cost is never taken below {@link #MIN_DIAL_COST_NANOS}: see there.
 *
 * <p><b>Drain time</b> is estimated from past background drains of this origin: for a body of known remaining length,
 * remaining bytes over the drain throughput; for a chunked body, the drain duration minus the time this drain has
 * already run (medians of recent drains; of two, the quicker, so one stall among the first two does not decide). A
 * drain that gave up counts as taking the whole time cap with what it drained, and {@link #lastDrainGaveUp} says so at
 * once. Until one drain has ended the estimate is 0 and the pool treats the origin as unknown (a short grace, then a
 * dial; see {@link HandOffPlanner}).
 *
 * <p>Thread-safe: exchanges and drains of any thread record into it.
 */
public final class CostModel {
    /** Samples per median: enough to outvote a couple of outliers, few enough to follow a change within a second. */
    static final int WINDOW = 9;
    /**
     * The least a new connection is taken to cost: 5 ms. Two reasons. A connection costs more than the latency a
     * client sees on a fast network: the server's accept, memory and handshake CPU (TLS), a TIME_WAIT entry when it
     * closes, and on the client one more idle connection to keep. And below a few milliseconds, latency differences
     * are inside a busy host's noise: a runnable thread may wait that long for a CPU (Linux's scheduler targets a
     * 6 ms latency period on small machines) and GC pauses are of the same order; they delay a drain and a dial
     * alike, so deciding on smaller differences trades connections for nothing measurable. On networks where a dial
     * costs more (a WAN round trip, TLS), the floor has no effect.
     */
    public static final long MIN_DIAL_COST_NANOS = 5_000_000;
    /**
     * Drains of an origin that must have ended before their times are used: 1. The decision no longer bets a whole
     * cap on optimism: a request that knows nothing waits only a short grace before dialing too, and a drain that
     * gave up makes the next request dial ({@link #lastDrainGaveUp}), so learning from the first drain costs at most
     * a dial when that drain was unlucky, where waiting for three drains could cost three caps.
     */
    public static final int MIN_DRAIN_HISTORY = 1;
    /**
     * The shortest expected drain worth a spare connection, and the grace a request with no drain history waits
     * before it dials as well: 1 ms. Below it a wait is within a loaded host's scheduling noise and a fraction of any
     * request's own round trip on a real network, so a connection per such wait would buy nothing measurable; above
     * it, on an origin whose requests come back to back, every request would pay it (issue 14).
     */
    public static final long MIN_SPARE_WAIT_NANOS = 1_000_000;

    private final ReentrantLock lock = new ReentrantLock();
    // All guarded by lock.
    private final RecentMedian freshFirstByteNanos = new RecentMedian(WINDOW);
    private final RecentMedian reusedFirstByteNanos = new RecentMedian(WINDOW);
    private final RecentMedian drainBytesPerNano = new RecentMedian(WINDOW);
    private final RecentMedian drainNanos = new RecentMedian(WINDOW);
    private int drainsSeen;
    private boolean lastDrainGaveUp;
    private boolean lastDrainHitByteCap;
    /** The byte-cap verdict came from a drain that was already reading past the cap (on a dial's time). */
    private boolean byteCapHitPastCap;
    private int skipsSinceByteCap;

    /** A fresh connection's first exchange: from the start of its dial to the first response byte. */
    public void recordFreshFirstByte(long nanos) {
        record(freshFirstByteNanos, Math.max(0, nanos));
    }

    /**
     * An exchange on a reused connection: from writing the request to the first response byte. Every reused exchange
     * of the origin reports one, from any number of threads at once, while the median needs only the last
     * {@link #WINDOW}: a sample that finds another being recorded is dropped rather than waited for (a virtual thread
     * that waits for a lock parks, which costs far more than the sample is worth).
     */
    public void recordReusedFirstByte(long nanos) {
        if (lock.tryLock()) {
            try {
                reusedFirstByteNanos.add(Math.max(0, nanos));
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * A background drain ended; one that gave up before its time cap is taken to have stopped at the byte cap.
     *
     * @param bytes     body bytes it discarded
     * @param nanos     how long it ran
     * @param completed whether it reached the end of the body
     * @param capNanos  the policy's time cap, charged to a drain that gave up
     */
    public void recordDrain(long bytes, long nanos, boolean completed, long capNanos) {
        recordDrainSample(bytes, nanos, completed, capNanos, !completed && nanos < capNanos, false);
    }

    /**
     * A background drain that read past the policy's byte cap ended. Past the cap a drain runs only as long as a dial
     * takes; one that gave up there found a body too large to be worth draining here, even with the longer budget.
     *
     * @param bytes           body bytes it discarded
     * @param nanos           how long it ran
     * @param completed       whether it reached the end of the body
     * @param extensionNanos  the time it had past the cap, charged to a drain that gave up
     */
    public void recordDrainPastCap(long bytes, long nanos, boolean completed, long extensionNanos) {
        recordDrainSample(bytes, nanos, completed, extensionNanos, !completed, true);
    }

    private void recordDrainSample(long bytes, long nanos, boolean completed, long capNanos, boolean outgrewBytes,
                                   boolean pastCap) {
        long duration = completed ? Math.max(1, nanos) : Math.max(capNanos, nanos);
        lock.lock();
        try {
            drainNanos.add(duration);
            drainBytesPerNano.add((double) bytes / duration);
            drainsSeen = Math.min(Integer.MAX_VALUE - 1, drainsSeen) + 1;
            lastDrainGaveUp = !completed;
            lastDrainHitByteCap = !completed && outgrewBytes;
            byteCapHitPastCap = lastDrainHitByteCap && pastCap;
        } finally {
            lock.unlock();
        }
    }

    private void record(RecentMedian samples, double sample) {
        lock.lock();
        try {
            samples.add(sample);
        } finally {
            lock.unlock();
        }
    }

    /** The expected extra latency of a new connection, in nanoseconds, at least {@link #MIN_DIAL_COST_NANOS}. */
    public long dialCostNanos() {
        return Math.max(MIN_DIAL_COST_NANOS, rawDialCostNanos());
    }

    /**
     * The expected extra latency of a new connection without the floor (0 before any dial was measured): what a
     * request that dials really waits. Used where the question is "is waiting for this drain quicker than a dial?"
     * for an origin whose drains are slow anyway, so that the floor never makes a request wait longer than a dial.
     */
    public long rawDialCostNanos() {
        lock.lock();
        try {
            double cost = freshFirstByteNanos.median();
            if (Double.isNaN(cost)) {
                return 0;
            }
            if (!reusedFirstByteNanos.isEmpty()) {
                cost -= reusedFirstByteNanos.median();
            }
            return (long) Math.max(0, cost);
        } finally {
            lock.unlock();
        }
    }

    /**
     * A dial's cost for deciding to read a body past the byte cap, without the floor: the lower median of the fresh
     * connections' first-byte times, less the reused ones' median; 0 until two dials were measured. Conservative on
     * purpose: the first connection of a cold process pays class loading and compilation, and one such sample must
     * not make the client read megabytes on a network where dials are cheap.
     */
    public long passCapDialCostNanos() {
        lock.lock();
        try {
            if (freshFirstByteNanos.size() < 2) {
                return 0;
            }
            double cost = freshFirstByteNanos.lowerMedian();
            if (!reusedFirstByteNanos.isEmpty()) {
                cost -= reusedFirstByteNanos.median();
            }
            return (long) Math.max(0, cost);
        } finally {
            lock.unlock();
        }
    }

    /** The typical duration of this origin's background drains (a drain that gave up counts as the cap); 0 if none. */
    public long typicalDrainNanos() {
        lock.lock();
        try {
            double typical = drainNanos.lowerMedian();
            return Double.isNaN(typical) ? 0 : (long) typical;
        } finally {
            lock.unlock();
        }
    }

    /**
     * This origin's typical drain throughput in bytes per nanosecond (the lower median of recent drains, a drain that
     * gave up counting as the whole cap); NaN until a drain has ended.
     */
    public double drainBytesPerNano() {
        lock.lock();
        try {
            return drainBytesPerNano.lowerMedian();
        } finally {
            lock.unlock();
        }
    }

    /** Background drains of this origin that have ended and recorded a duration (failed ones included). */
    public int drainsSeen() {
        lock.lock();
        try {
            return drainsSeen;
        } finally {
            lock.unlock();
        }
    }

    /** The latest drain of this origin hit its time or byte cap: the next request should not count on a drain. */
    public boolean lastDrainGaveUp() {
        lock.lock();
        try {
            return lastDrainGaveUp;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Closes of an origin whose bodies outgrow the byte cap that skip the drain, out of every
     * {@code SKIPS_PER_RETRY + 1}: 15. One close in 16 still drains, so an origin whose bodies get small again is
     * drained again within 16 responses, at the price of one capped drain per 16 large ones.
     */
    static final int SKIPS_PER_RETRY = 15;

    /**
     * Whether to close this unread body of unknown length at once rather than drain it: true when the latest drain of
     * this origin stopped at the byte cap with body bytes still coming (its bodies are larger than the cap, chunked, so
     * their length was not declared: the same verdict as a declared Content-Length over the cap), except every
     * {@link #SKIPS_PER_RETRY}+1-th call, which lets a drain try again.
     *
     * @param mayPassCap this drain may read past the cap ({@link #passCapDialCostNanos} now says a dial is worth it):
     *                   a verdict from a drain that stopped at the cap itself does not apply to it, since it was
     *                   reached with less to spend (typically before the second dial of a new client was measured)
     */
    public boolean skipDrainForByteCap(boolean mayPassCap) {
        lock.lock();
        try {
            if (!lastDrainHitByteCap || (mayPassCap && !byteCapHitPastCap)) {
                return false;
            }
            if (skipsSinceByteCap >= SKIPS_PER_RETRY) {
                skipsSinceByteCap = 0;
                return false;
            }
            skipsSinceByteCap++;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The shortest expected drain worth a spare connection: the origin's median request round trip on a reused
     * connection (write to first byte), at least {@link #MIN_SPARE_WAIT_NANOS}. A drain shorter than the request's
     * own round trip adds less than the request costs anyway; one longer is "slow relative to requests".
     */
    public long spareWaitNanos() {
        lock.lock();
        try {
            double roundTrip = reusedFirstByteNanos.median();
            return Double.isNaN(roundTrip) ? MIN_SPARE_WAIT_NANOS : (long) Math.max(MIN_SPARE_WAIT_NANOS, roundTrip);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Nanoseconds until the drain is expected to end; Long.MAX_VALUE when it is not expected to end in time; 0 until
     * {@link #MIN_DRAIN_HISTORY} drains of this origin have ended.
     */
    public long expectedDrainNanos(DrainProgress progress, long now) {
        lock.lock();
        try {
            if (drainNanos.size() < MIN_DRAIN_HISTORY) {
                return 0;
            }
            long remaining = progress.remaining();
            if (remaining >= 0) {
                double throughput = drainBytesPerNano.lowerMedian();
                if (remaining == 0 || Double.isNaN(throughput)) {
                    return 0;
                }
                return throughput <= 0 ? Long.MAX_VALUE : (long) Math.min(Long.MAX_VALUE / 2.0, remaining / throughput);
            }
            double duration = drainNanos.lowerMedian();
            if (Double.isNaN(duration)) {
                return 0;
            }
            return (long) Math.max(0, duration - (now - progress.startNanos()));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        lock.lock();
        try {
            return "CostModel[freshFirstByte=" + freshFirstByteNanos.median() + "ns, reusedFirstByte="
                    + reusedFirstByteNanos.median() + "ns, drain=" + drainNanos.median() + "ns @ "
                    + drainBytesPerNano.median() + " B/ns, dialCost=" + dialCostNanos() + "ns]";
        } finally {
            lock.unlock();
        }
    }
}
