package dev.shuttle.client.drain;

import dev.shuttle.client.pool.CostModel;

/**
 * How much of an unread HTTP/1.1 body a drain may read, decided when the caller closes it. Pure: the inputs are the
 * body's framing, the policy's caps and what the pool has learned of the origin, so each branch is tested as a table.
 *
 * <p>Within the policy's byte cap ({@link #floorBytes}) only the policy's time cap applies, as in Go 1.27. A policy
 * that learns per origin (hand-off) may read past the cap when that is cheaper than what closing costs: the next
 * request's new connection. Past the cap the drain therefore runs only as long as a dial of this origin takes
 * ({@link #extensionNanos}, the learned dial cost, at most the time cap), and never past {@link #CEILING_FACTOR} times
 * the cap. On loopback with a 20 ms handshake a 1 MiB body drains in about a millisecond and saves 20; on a slow link
 * the same rule closes at once, since the body would outlast the dial. A declared length is judged before anything is
 * read, from the origin's drain throughput: closed at once when it would outlast the dial; when nothing has been
 * measured yet it is tried once, which costs at most the dial's time on a background thread.
 *
 * <p>Only a dial of at least {@link #MIN_DIAL_TO_PASS_CAP_NANOS} is worth reading past the cap for. Where dials are
 * cheaper (loopback, a LAN) the saving is inside a busy host's noise, while a drain of a large body that the next
 * request waits for is not (measured on loopback: 1 MiB bodies drained instead of closed took 1.4-1.8 times as long per
 * 100 requests as closing them), and the bytes are read for nothing.
 *
 * @param bytes          body bytes the drain may read in all (0: do not drain, close at once)
 * @param floorBytes     the policy's byte cap: below it only the policy's time cap applies
 * @param extensionNanos past {@code floorBytes}, the drain stops once it has run this long; 0 when {@code bytes} is
 *                       the cap itself
 */
public record DrainBudget(long bytes, long floorBytes, long extensionNanos) {
    /**
     * The most a drain reads past its policy's cap, as a multiple of the cap: 16 (4 MiB for the default 256 KiB).
     * The time limit alone would let a fast link read tens of megabytes in the time of a slow handshake: bytes the
     * caller had said it did not want, paid for on a metered network. A body this large is rare where bodies are
     * closed unread on purpose, and closing its connection costs one dial.
     */
    public static final int CEILING_FACTOR = 16;

    /** The least a dial must cost for a drain to pass the cap: {@link CostModel#MIN_DIAL_COST_NANOS}, 5 ms. */
    public static final long MIN_DIAL_TO_PASS_CAP_NANOS = CostModel.MIN_DIAL_COST_NANOS;

    private static final DrainBudget SKIP = new DrainBudget(0, 0, 0);

    /**
     * @param remaining      body bytes left by the framing, or -1 when it does not say (chunked)
     * @param maxBytes       the policy's byte cap
     * @param maxTimeNanos   the policy's time cap
     * @param learns         whether the policy learns per origin (hand-off): only then may a drain pass the cap
     * @param rawDialNanos   what a new connection to this origin costs, without the pool's floor (0 when not yet
     *                       known well enough: {@link CostModel#passCapDialCostNanos})
     * @param drainBytesPerNano this origin's drain throughput, NaN when no drain has ended yet
     */
    public static DrainBudget plan(long remaining, long maxBytes, long maxTimeNanos, boolean learns, long rawDialNanos,
                                   double drainBytesPerNano) {
        if (remaining >= 0 && remaining <= maxBytes) {
            return new DrainBudget(maxBytes, maxBytes, 0);
        }
        long extension = Math.min(maxTimeNanos, rawDialNanos);
        boolean extendable = learns && rawDialNanos >= MIN_DIAL_TO_PASS_CAP_NANOS;
        long ceiling = maxBytes > Long.MAX_VALUE / CEILING_FACTOR ? Long.MAX_VALUE : maxBytes * CEILING_FACTOR;
        if (remaining < 0) {
            return extendable ? new DrainBudget(ceiling, maxBytes, extension) : new DrainBudget(maxBytes, maxBytes, 0);
        }
        if (!extendable || remaining > ceiling) {
            return SKIP;
        }
        if (!Double.isNaN(drainBytesPerNano) && (drainBytesPerNano <= 0 || remaining / drainBytesPerNano >= extension)) {
            return SKIP; // expected to outlast a dial
        }
        return new DrainBudget(remaining, maxBytes, extension);
    }

    /** Whether to close the connection at once, reading nothing. */
    public boolean skips() {
        return bytes == 0;
    }

    /** Whether the drain may read past the policy's byte cap. */
    public boolean passesCap() {
        return extensionNanos > 0;
    }
}
