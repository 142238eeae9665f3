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
 * "Slow drains" means the origin's typical drain takes at least the spare wait ({@link Facts#spareWait}, 1 ms or the
 * origin's request round trip): every back-to-back request would pay it. In order:
 * <ol>
 *   <li>Nothing draining: count on a spare dial already on its way if there is one (it is at most one dial away, and
 *       a second dial would only add a connection), else dial.</li>
 *   <li>No drain of this origin has ended yet: wait as long as a dial takes (at most the spare wait: a grace), then
 *       dial as well; if a drain in flight has already run that long, dial a spare at once. A body that drains at
 *       loopback speed costs no connection; a stalled one costs the grace and a dial, never the cap.</li>
 *   <li>The last drain gave up (time or byte cap), or the drain is expected to take longer than a dial: dial, or count
 *       on a spare in flight. One failure is enough to stop trusting: waiting again could cost another whole cap.</li>
 *   <li>The origin's drains are quick (typically under the spare wait) and this one is expected to end within it:
 *       wait for it alone; a connection per such wait would buy nothing measurable. The pool dials as well if the
 *       drain overruns the estimate by a real dial's time (at least the spare wait): the ski-rental bound.</li>
 *   <li>Otherwise the drain is cheaper than a dial but the origin's drains are slow for a request: make sure a spare
 *       is coming — count on the one in flight, or dial one now. Not even a drain about to end is waited for alone
 *       here: such estimates come from durations measured on a busy host and are off by milliseconds (measured: a
 *       request that waited alone for a 10 ms drain expected within 1 ms lost 0.5–4 ms), while the spare costs the
 *       request nothing: whichever is first serves it, and the other is ready for the next request. An origin with
 *       slow drains so grows to enough connections that one is idle when a request comes, one spare dial in flight
 *       at a time; {@code bounded} dials for every request that finds none idle, which overshoots.</li>
 * </ol>
 */
final class HandOffPlanner {
    private HandOffPlanner() {
    }

    /**
     * What the pool knows when a request finds no idle connection. Durations in nanoseconds.
     *
     * @param draining        an unclaimed connection of the origin is draining
     * @param expectedDrain   until the soonest of them is expected to end (meaningful when {@code drainsSeen > 0});
     *                        Long.MAX_VALUE when it is not expected to end within its cap
     * @param longestRunning  how long the oldest drain in flight has run
     * @param drainsSeen      background drains of this origin that have ended (failed ones included)
     * @param typicalDrain    their typical duration (a drain that gave up counts as the cap)
     * @param lastDrainGaveUp the latest of them hit the time or byte cap
     * @param dialCost        the learned extra latency of a new connection, at least the 5 ms floor
     * @param rawDialCost     the same without the floor: what a dial really takes here (bounds the first grace)
     * @param spareWait       the shortest drain wait worth a spare connection
     * @param spareInFlight   a dial no request is waiting for (a spare) is on its way and nobody else counts on it
     */
    record Facts(boolean draining, long expectedDrain, long longestRunning, int drainsSeen, long typicalDrain,
                 boolean lastDrainGaveUp, long dialCost, long rawDialCost, long spareWait, boolean spareInFlight) {
    }

    static HandOffDecision decide(Facts f) {
        Duration dial = Duration.ofNanos(f.dialCost());
        Duration spareWait = Duration.ofNanos(f.spareWait());
        if (!f.draining()) {
            return f.spareInFlight()
                    ? new HandOffDecision(Kind.WAIT_FOR_SPARE, null, dial, spareWait,
                            "nothing idle or draining; a spare dial is already on its way")
                    : new HandOffDecision(Kind.DIAL, null, dial, spareWait, "nothing idle or draining");
        }
        if (f.drainsSeen() == 0) {
            // Nothing known: wait as long as a dial would take (up to the spare wait), then dial as well, so the
            // request pays at most about twice the better choice (ski rental) and a stalled first drain costs a grace,
            // not the cap.
            long grace = f.rawDialCost() > 0 ? Math.min(f.spareWait(), f.rawDialCost()) : f.spareWait();
            if (f.longestRunning() >= grace) {
                return spare(f, null, dial, spareWait, "no drain of this origin has ended yet, but one has run "
                        + ms(f.longestRunning()) + ", as long as a dial: waiting for it");
            }
            return new HandOffDecision(Kind.WAIT_FOR_DRAIN_THEN_DIAL, null, dial,
                    Duration.ofNanos(grace - f.longestRunning()),
                    "no drain of this origin has ended yet: waiting up to " + ms(grace - f.longestRunning())
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
        boolean slowDrains = f.typicalDrain() >= f.spareWait();
        if (!slowDrains && f.expectedDrain() < f.spareWait()) {
            return new HandOffDecision(Kind.WAIT_FOR_DRAIN, expected, dial, spareWait,
                    drainText + ", under " + ms(f.spareWait()) + " (drains here take " + ms(f.typicalDrain())
                            + "): waiting for it alone");
        }
        return spare(f, expected, dial, spareWait, drainText + ", less than a dial (" + ms(f.dialCost())
                + ") but slow for a request (drains here take " + ms(f.typicalDrain()) + "): waiting for it");
    }

    private static HandOffDecision spare(Facts f, Duration expected, Duration dial, Duration spareWait, String why) {
        return f.spareInFlight()
                ? new HandOffDecision(Kind.WAIT_FOR_SPARE, expected, dial, spareWait,
                        why + " or for the spare dial already on its way, whichever is first")
                : new HandOffDecision(Kind.WAIT_FOR_DRAIN_AND_DIAL_SPARE, expected, dial, spareWait,
                        why + ", and dialing a spare for the requests after it");
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
    }
}
