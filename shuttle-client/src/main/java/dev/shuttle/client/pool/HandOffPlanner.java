package dev.shuttle.client.pool;

import dev.shuttle.client.HandOffDecision;
import dev.shuttle.client.HandOffDecision.Kind;
import java.time.Duration;
import java.util.Locale;

/**
 * The hand-off rule: what a request that found no idle HTTP/1.1 connection does, from what the pool knows about its
 * origin at that moment ({@link Facts}). Pure: no clock, no lock, no I/O, so each branch is tested as a table.
 *
 * <p>The request always takes whichever connection becomes free for it first; the rule decides what to set in motion.
 * In order:
 * <ol>
 *   <li>Nothing draining: rely on a spare dial already on its way if there is one (it is at most one dial cost away,
 *       and a second dial would only add a connection), else dial.</li>
 *   <li>A drain, but none of this origin has ended yet: wait for it for a short grace ({@link Facts#spareWaitNanos}),
 *       then dial as well. A body that drains at loopback speed costs no connection; a stalled one costs the grace
 *       and a dial, never the time cap.</li>
 *   <li>The origin's last drain gave up (time or byte cap): dial, or rely on a spare in flight. One failure is enough
 *       to stop trusting: waiting again could cost another whole cap, where a dial costs one dial.</li>
 *   <li>The drain is expected to take longer than a dial: dial, or rely on a spare in flight (cheaper still).</li>
 *   <li>The drain is expected to end within {@link Facts#spareWaitNanos}: wait for it alone; a connection per such
 *       wait would trade connections for time nobody can measure.</li>
 *   <li>Otherwise the drain is cheaper than a dial but slow compared to a request: wait for it, and make sure a spare
 *       is coming — rely on the one in flight, or dial one now. The request gets whichever is first; the other is
 *       ready for the next request, so an origin whose drains are slow ends up with enough connections that one is
 *       idle when a request comes, one dial at a time (never more than one spare dial in flight).</li>
 * </ol>
 */
final class HandOffPlanner {
    private HandOffPlanner() {
    }

    /**
     * What the pool knows when a request finds no idle connection.
     *
     * @param draining        an unclaimed connection of the origin is draining
     * @param expectedDrain   nanoseconds until the soonest of them is expected to end (meaningful when
     *                        {@code drainsSeen > 0}); Long.MAX_VALUE when it is not expected to end in time
     * @param drainsSeen      background drains of this origin that have ended (with a recorded duration)
     * @param lastDrainGaveUp the latest of them hit the time or byte cap
     * @param dialCost        the learned extra latency of a new connection
     * @param spareWaitNanos  the shortest drain wait worth a spare connection
     * @param spareInFlight   a dial no request is waiting for (a spare) is on its way and nobody else counts on it
     */
    record Facts(boolean draining, long expectedDrain, int drainsSeen, boolean lastDrainGaveUp, long dialCost,
                 long spareWaitNanos, boolean spareInFlight) {
    }

    static HandOffDecision decide(Facts f) {
        Duration dial = Duration.ofNanos(f.dialCost());
        Duration spareWait = Duration.ofNanos(f.spareWaitNanos());
        if (!f.draining()) {
            return f.spareInFlight()
                    ? new HandOffDecision(Kind.WAIT_FOR_SPARE, null, dial, spareWait,
                            "nothing idle or draining; a spare dial is already on its way")
                    : new HandOffDecision(Kind.DIAL, null, dial, spareWait, "nothing idle or draining");
        }
        if (f.drainsSeen() == 0) {
            return new HandOffDecision(Kind.WAIT_FOR_DRAIN_THEN_DIAL, null, dial, spareWait,
                    "no drain of this origin has ended yet: waiting " + ms(f.spareWaitNanos())
                            + " for this one, then dialing as well");
        }
        Duration expected = f.expectedDrain() == Long.MAX_VALUE ? null : Duration.ofNanos(f.expectedDrain());
        String drainText = expected == null ? "drain not expected to end within its cap"
                : "drain expected to end in " + ms(f.expectedDrain());
        if (f.lastDrainGaveUp() || f.expectedDrain() > f.dialCost()) {
            String why = f.lastDrainGaveUp() ? "the last drain of this origin gave up at its cap"
                    : drainText + ", a dial costs " + ms(f.dialCost());
            return f.spareInFlight()
                    ? new HandOffDecision(Kind.WAIT_FOR_SPARE, expected, dial, spareWait,
                            why + ": waiting for the spare dial already on its way")
                    : new HandOffDecision(Kind.DIAL, expected, dial, spareWait, why + ": dialing");
        }
        if (f.expectedDrain() < f.spareWaitNanos()) {
            return new HandOffDecision(Kind.WAIT_FOR_DRAIN, expected, dial, spareWait,
                    drainText + ", under " + ms(f.spareWaitNanos()) + ": waiting for it");
        }
        String slow = drainText + ", less than a dial (" + ms(f.dialCost()) + ") but slow for a request (over "
                + ms(f.spareWaitNanos()) + "): waiting for it";
        return f.spareInFlight()
                ? new HandOffDecision(Kind.WAIT_FOR_SPARE, expected, dial, spareWait,
                        slow + " or for the spare dial already on its way, whichever is first")
                : new HandOffDecision(Kind.WAIT_FOR_DRAIN_AND_DIAL_SPARE, expected, dial, spareWait,
                        slow + ", and dialing a spare for the requests after it");
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
    }
}
