package dev.shuttle.client;

import java.time.Duration;
import java.util.Objects;

/**
 * Why a request that found no idle HTTP/1.1 connection waited, dialed or took a spare: the hand-off rule's decision,
 * reported through {@link ClientTrace#handOff} before the request gets its connection. Whatever the decision, the
 * request takes the first connection that becomes free for it (its dial, a finished drain, a spare dial, a connection
 * another request releases); the decision says what it set in motion and what it expected.
 *
 * @param kind          what the request did
 * @param expectedDrain how long the draining connection it looked at was expected to take still; null when none was
 *                      draining or nothing is known yet about this origin's drains
 * @param dialCost      what a new connection to this origin is learned to cost (at least 5 ms)
 * @param spareWait     the shortest wait for a drain that is worth a spare connection to this origin (at least 1 ms);
 *                      for {@link Kind#WAIT_FOR_DRAIN_THEN_DIAL}, the grace before the request dials as well
 * @param reason        one sentence, for people
 */
public record HandOffDecision(Kind kind, Duration expectedDrain, Duration dialCost, Duration spareWait,
                              String reason) {
    /** What the request did. */
    public enum Kind {
        /** Dialed a connection of its own: nothing was draining, or the drain was expected to be slower. */
        DIAL,
        /** Waited for a draining connection, expected to end soon enough that a spare was not worth dialing. */
        WAIT_FOR_DRAIN,
        /**
         * Waited for a draining connection and dialed a spare at once: this origin's drains are slow compared to its
         * requests, so the next request will find the spare (or this drained connection) ready.
         */
        WAIT_FOR_DRAIN_AND_DIAL_SPARE,
        /** Nothing is known yet about this origin's drains: waited briefly for the drain, dialing if it went on. */
        WAIT_FOR_DRAIN_THEN_DIAL,
        /** A spare dial was already on its way: waited for it, or for the drain if that ends first. */
        WAIT_FOR_SPARE
    }

    /** Checks that the kind and the reason are given. */
    public HandOffDecision {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(reason, "reason");
    }

    /** {@return true when the request started a dial of its own (at once, or after a short wait for a first drain)} */
    public boolean dials() {
        return kind == Kind.DIAL || kind == Kind.WAIT_FOR_DRAIN_AND_DIAL_SPARE || kind == Kind.WAIT_FOR_DRAIN_THEN_DIAL;
    }

    @Override
    public String toString() {
        return kind + ": " + reason;
    }
}
