package dev.shuttle.client;

import java.time.Duration;
import java.util.Objects;

/**
 * What the client does with the unread rest of an HTTP/1.1 response body when the caller closes it early.
 *
 * <p>The steps, in order (a step not enabled here is skipped):
 * <ol>
 *   <li>{@code Connection: close}, a close-delimited body or keep-alive off: close the connection, read nothing
 *       ({@link DrainOutcome#SKIPPED_CLOSE}); a declared Content-Length leaving more than {@link #maxBytes()} unread:
 *       close ({@link DrainOutcome#SKIPPED_LENGTH}) — except with {@link #handOff()}, see step 3.</li>
 *   <li>{@link #inline()}: consume what is buffered or readable without blocking, up to the byte cap; if that
 *       reaches the end, the connection is idle before {@code close()} returns.</li>
 *   <li>Drain the rest on a background virtual thread, within {@link #maxBytes()} and {@link #maxTime()};
 *       {@code close()} never waits for it. With {@link #handOff()} the byte cap is a floor: past it a drain goes on
 *       for as long as a new connection to the origin takes (learned; at most {@link #maxTime()}), up to 16 times
 *       the cap, because closing the connection would cost the next request that dial. A declared length past the
 *       cap is drained only when the origin's drains so far say it ends within that time.</li>
 *   <li>{@link #handOff()}: a request that finds no idle connection follows the hand-off rule, from costs learned
 *       per origin: it waits for a draining connection when that is cheaper than a dial, and, where the origin's
 *       drains are slow for its requests, dials a spare beside the wait (or counts on one already on its way) so the
 *       next request finds a connection ready; it dials when the drain would take longer, or the last one gave up.
 *       {@link ClientTrace#handOff} reports each decision and why. Without hand-off the request dials at once, and
 *       still takes the drained connection if it is ready first.</li>
 * </ol>
 *
 * @param maxBytes body bytes the client will read and discard per response; 0 with {@link #none()}
 * @param maxTime  how long a background drain may take; ZERO with {@link #none()}
 * @param inline   whether {@code close()} first consumes what has already arrived
 * @param handOff  whether a request may wait for a draining connection instead of dialing
 */
public record DrainPolicy(long maxBytes, Duration maxTime, boolean inline, boolean handOff) {
    /** Go 1.27's caps: 256 KiB is a few milliseconds on a slow link and far less than a TLS handshake costs. */
    public static final long DEFAULT_MAX_BYTES = 256 * 1024;
    /** Go 1.27's cap: 50 ms is about one intercontinental round trip, what a new connection costs at least. */
    public static final Duration DEFAULT_MAX_TIME = Duration.ofMillis(50);

    private static final DrainPolicy NONE = new DrainPolicy(0, Duration.ZERO, false, false);
    private static final DrainPolicy DEFAULTS = new DrainPolicy(DEFAULT_MAX_BYTES, DEFAULT_MAX_TIME, true, true);

    /**
     * Checks the caps: negative caps are refused, and so are the inline path and hand-off with a zero cap, which would
     * drain nothing.
     */
    public DrainPolicy {
        Objects.requireNonNull(maxTime, "maxTime");
        if (maxBytes < 0 || maxTime.isNegative()) {
            throw new IllegalArgumentException("negative cap: " + maxBytes + " bytes, " + maxTime);
        }
        if ((maxBytes == 0 || maxTime.isZero()) && (inline || handOff)) {
            throw new IllegalArgumentException("inline drain or hand-off need non-zero caps");
        }
    }

    /**
     * Never drain: closing an unread body closes its connection (Go 1.26 and earlier, Jetty, the JDK client).
     *
     * @return the policy that never drains
     */
    public static DrainPolicy none() {
        return NONE;
    }

    /**
     * Go 1.27's behaviour: a background drain capped at {@code maxBytes} and {@code maxTime}, no inline path and no
     * waiting for a draining connection (a request that dials still takes the drained connection if it is first).
     *
     * @param maxBytes the most bytes a background drain reads before it gives the connection up
     * @param maxTime the longest a background drain runs before it gives the connection up
     * @return a policy with Go 1.27's rules and these caps
     */
    public static DrainPolicy bounded(long maxBytes, Duration maxTime) {
        if (maxBytes <= 0 || maxTime.isZero() || maxTime.isNegative()) {
            throw new IllegalArgumentException("bounded drain needs positive caps: " + maxBytes + ", " + maxTime);
        }
        return new DrainPolicy(maxBytes, maxTime, false, false);
    }

    /**
     * Shuttle's default: inline, then background drain within 256 KiB and 50 ms, with hand-off.
     *
     * @return Shuttle's default policy
     */
    public static DrainPolicy defaults() {
        return DEFAULTS;
    }

    /** {@return true unless this is {@link #none()}-like: some bytes may be drained} */
    public boolean drains() {
        return maxBytes > 0 && !maxTime.isZero();
    }
}
