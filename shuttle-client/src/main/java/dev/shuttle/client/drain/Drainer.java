package dev.shuttle.client.drain;

import dev.shuttle.client.DrainOutcome;
import dev.shuttle.client.DrainPolicy;
import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.internal.Deadline;
import dev.shuttle.client.pool.CostModel;
import dev.shuttle.client.pool.DrainProgress;
import dev.shuttle.wire.http1.BodyDecoder;
import dev.shuttle.wire.http1.Http1Source;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.LongSupplier;

/**
 * Decides and carries out what happens to a connection whose response body was closed before its end
 * ({@link DrainPolicy} lists the steps). {@link #closeEarly} runs on the closing thread and never blocks on the
 * network: it skips, drains what has already arrived, or hands the rest to a background virtual thread bounded by
 * the policy's byte and time caps. Stateless apart from its settings; thread-safe.
 */
public final class Drainer {
    private static final System.Logger LOG = System.getLogger(Drainer.class.getName());

    private final DrainPolicy policy;
    private final LongSupplier clock;
    private final long maxTimeNanos;

    public Drainer(DrainPolicy policy, LongSupplier clock) {
        this.policy = policy;
        this.clock = clock;
        this.maxTimeNanos = policy.maxTime().toNanos();
    }

    /** The body was closed before its end; its decoder is not complete. Releases the lease, now or later. */
    public void closeEarly(DrainTarget target) {
        BodyDecoder decoder = target.decoder();
        if (!target.connectionReusable()) {
            abandon(target, DrainOutcome.SKIPPED_CLOSE, 0, null);
            return;
        }
        if (!policy.drains()) {
            abandon(target, DrainOutcome.SKIPPED_POLICY, 0, null);
            return;
        }
        CostModel costs = target.lease().costs();
        DrainBudget budget = DrainBudget.plan(decoder.remainingLength(), policy.maxBytes(), maxTimeNanos,
                policy.handOff(), costs.passCapDialCostNanos(), costs.drainBytesPerNano());
        if (budget.skips()) {
            abandon(target, DrainOutcome.SKIPPED_LENGTH, 0, null);
            return;
        }
        // A body of unknown length from an origin whose last drain stopped at the byte cap: as for a declared length
        // over the cap, reading up to the cap would cost the caller time and bytes for a connection that is then
        // closed anyway. Only the learning policy does this (the others have no hand-off and learn nothing). A drain
        // that may now read past the cap is not held to a verdict reached without that allowance.
        if (policy.handOff() && decoder.remainingLength() < 0 && costs.skipDrainForByteCap(budget.passesCap())) {
            abandon(target, DrainOutcome.SKIPPED_LENGTH, 0, null);
            return;
        }
        long discarded = 0;
        // An interrupted closing thread would close the channel on its first read (interruptible channel): leave the
        // work to the background thread instead.
        if (policy.inline() && !Thread.currentThread().isInterrupted()) {
            try {
                discarded = target.stream().skipAvailable(policy.maxBytes());
            } catch (IOException e) {
                abandon(target, DrainOutcome.ABANDONED_ERROR, discarded, e);
                return;
            }
            if (decoder.isComplete()) {
                reuse(target, DrainOutcome.REUSED_INLINE, discarded);
                return;
            }
        }
        DrainProgress progress = new DrainProgress(clock.getAsLong(), decoder.remainingLength());
        if (!target.lease().startDrain(progress)) {
            abandon(target, DrainOutcome.ABANDONED_ERROR, discarded, new IOException("client closed"));
            return;
        }
        long alreadyDiscarded = discarded;
        Thread.ofVirtual().name("shuttle-drain")
                .start(() -> drainInBackground(target, progress, budget, alreadyDiscarded));
    }

    private void drainInBackground(DrainTarget target, DrainProgress progress, DrainBudget plan,
                                   long discardedInline) {
        BodyDecoder decoder = target.decoder();
        Http1Source source = target.source();
        long start = clock.getAsLong();
        long deadline = Deadline.after(start, maxTimeNanos);
        target.drainDeadline(deadline);
        long budget = plan.bytes() - discardedInline;
        long floor = plan.floorBytes() - discardedInline;
        boolean pastCap = false;
        long drained = 0;
        DrainOutcome outcome;
        IOException failure = null;
        try {
            // Not BodyInputStream.skipBlocking: this loop publishes progress for the hand-off estimate after every
            // read, and after the byte budget is spent it still reads on to consume a chunked body's last-chunk
            // framing, so a body of exactly the cap is reused.
            while (true) {
                ByteBuffer input = source.buffer();
                drained += decoder.skip(input, budget - drained);
                progress.drained(drained);
                if (decoder.isComplete()) {
                    outcome = DrainOutcome.REUSED_ASYNC;
                    break;
                }
                if (drained >= budget && input.hasRemaining()) {
                    outcome = DrainOutcome.ABANDONED_BYTES; // body bytes beyond the cap are waiting
                    break;
                }
                if (plan.passesCap() && drained >= floor) {
                    // Past the policy's cap: on only while a new connection would still take longer.
                    long extensionEnd = Deadline.after(start, plan.extensionNanos());
                    if (!pastCap) {
                        pastCap = true;
                        target.drainDeadline(Math.min(deadline, extensionEnd));
                    }
                    if (clock.getAsLong() - extensionEnd >= 0) {
                        outcome = DrainOutcome.ABANDONED_TIME;
                        break;
                    }
                }
                if (source.fill() < 0) {
                    decoder.endOfInput(); // throws for a truncated body
                }
            }
        } catch (HttpTimeoutException e) {
            outcome = DrainOutcome.ABANDONED_TIME;
        } catch (IOException | RuntimeException e) {
            outcome = DrainOutcome.ABANDONED_ERROR;
            failure = e instanceof IOException io ? io : new IOException(e);
        }
        long elapsed = clock.getAsLong() - start;
        if (outcome != DrainOutcome.ABANDONED_ERROR) {
            boolean completed = outcome == DrainOutcome.REUSED_ASYNC;
            // The bytes consumed inline count too: the throughput learned is how fast a closed body of this origin is
            // got rid of, which is what a length past the cap is judged by (counting only the background's share,
            // often the last few bytes and a wait for them, would make every large body look slow).
            long bytes = discardedInline + drained;
            if (pastCap) {
                // Past the cap a drain runs for the time of a dial, not the policy's time cap; one that gave up there
                // found a body too large to be worth draining, as one that stopped at the byte cap did.
                target.lease().costs().recordDrainPastCap(bytes, elapsed, completed, plan.extensionNanos());
            } else {
                target.lease().costs().recordDrain(bytes, elapsed, completed, maxTimeNanos);
            }
        }
        long discarded = discardedInline + drained;
        if (outcome == DrainOutcome.REUSED_ASYNC) {
            reuse(target, outcome, discarded);
        } else {
            abandon(target, outcome, discarded, failure);
        }
    }

    /** The body reached its end: the connection goes back, unless bytes nobody asked for follow the body. */
    private static void reuse(DrainTarget target, DrainOutcome outcome, long discarded) {
        if (target.source().buffer().hasRemaining()) {
            abandon(target, DrainOutcome.ABANDONED_ERROR, discarded,
                    new IOException("bytes after the end of the response body"));
            return;
        }
        target.lease().release(true);
        target.finished(outcome, discarded);
    }

    private static void abandon(DrainTarget target, DrainOutcome outcome, long discarded, IOException cause) {
        if (cause != null) {
            LOG.log(System.Logger.Level.DEBUG, "drain ended with " + outcome, cause);
        }
        target.abortConnection(cause != null ? cause : new IOException("response closed: " + outcome));
        target.lease().release(false);
        target.finished(outcome, discarded);
    }
}
