package dev.shuttle.server.http2;

import dev.shuttle.server.Http2Options;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Exception;
import java.util.concurrent.TimeUnit;

/**
 * What a client may make the server do for nothing, per connection, in the two budgets whose rules are written in
 * {@code docs/SECURITY.md}. Both count only what a well-behaved client does not do at a rate: a client serving itself
 * normally (reading or abandoning responses, returning window credit, resetting streams it stopped wanting) spends
 * neither; bounded work, not frame rates, is what holds such clients back ({@link HandlerSlots}).
 *
 * <ul>
 *   <li>Resets before any wait: streams the client's frames make the server reset (malformed requests, frames on a
 *       stream it already ended, streams past the concurrency it was told: MadeYouReset, CVE-2025-8671), and streams
 *       the client resets in the very read that opened them (rapid reset, CVE-2023-44487). A client that cancels a
 *       call it waited for, however many, spends nothing.
 *   <li>Control frames: frames that must be answered or change nothing useful (SETTINGS, PING while no response
 *       went out since the last one, PRIORITY, empty DATA that ends nothing, WINDOW_UPDATE beyond the credit we
 *       are owed): the floods of CVE-2019-9512/9515/9518.
 * </ul>
 * Past either, the connection gets GOAWAY ENHANCE_YOUR_CALM. Owned by the connection's reading thread.
 */
final class AbuseBudgets {
    private final RateBudget resets;
    private final RateBudget controlFrames;

    AbuseBudgets(Http2Options options) {
        this.resets = new RateBudget(options.maxStreamResets(), options.resetWindow().toNanos());
        this.controlFrames = new RateBudget(options.maxControlFramesPerSecond(), TimeUnit.SECONDS.toNanos(1));
    }

    void provokedReset(long nowNanos) throws Http2Exception {
        spendReset(nowNanos);
    }

    void rapidReset(long nowNanos) throws Http2Exception {
        spendReset(nowNanos);
    }

    private void spendReset(long nowNanos) throws Http2Exception {
        if (!resets.spend(nowNanos)) {
            throw Http2Exception.connectionError(Http2ErrorCode.ENHANCE_YOUR_CALM, "too many stream resets");
        }
    }

    void controlFrame(long nowNanos) throws Http2Exception {
        if (!controlFrames.spend(nowNanos)) {
            throw Http2Exception.connectionError(Http2ErrorCode.ENHANCE_YOUR_CALM, "too many control frames");
        }
    }
}
