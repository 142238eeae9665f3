package dev.shuttle.wire.http2;

/**
 * A stream's state as RFC 9113 section 5.1 has it, for either side, without the reserved states (push is off on
 * both of Shuttle's sides, so they are never entered):
 *
 * <pre>
 *   state                 HEADERS        END_STREAM sent       END_STREAM received    RST_STREAM either way
 *   idle                  open           -                     -                      -
 *   open                  -              half-closed (local)   half-closed (remote)   closed
 *   half-closed (local)   -              -                     closed                 closed
 *   half-closed (remote)  -              closed                -                      closed
 * </pre>
 * HEADERS with END_STREAM opens and ends that side at once.
 */
public enum StreamState {
    IDLE, OPEN, HALF_CLOSED_LOCAL, HALF_CLOSED_REMOTE, CLOSED;

    /** Our HEADERS went out (with END_STREAM when {@code endStream}). */
    public StreamState sentHeaders(boolean endStream) {
        StreamState opened = this == IDLE ? OPEN : this;
        return endStream ? opened.sentEndStream() : opened;
    }

    /** The peer's HEADERS arrived (with END_STREAM when {@code endStream}). */
    public StreamState receivedHeaders(boolean endStream) {
        StreamState opened = this == IDLE ? OPEN : this;
        return endStream ? opened.receivedEndStream() : opened;
    }

    /** Our END_STREAM went out. */
    public StreamState sentEndStream() {
        return switch (this) {
            case OPEN -> HALF_CLOSED_LOCAL;
            case HALF_CLOSED_REMOTE -> CLOSED;
            default -> this;
        };
    }

    /** The peer's END_STREAM arrived. */
    public StreamState receivedEndStream() {
        return switch (this) {
            case OPEN -> HALF_CLOSED_REMOTE;
            case HALF_CLOSED_LOCAL -> CLOSED;
            default -> this;
        };
    }

    /** RST_STREAM either way. */
    public StreamState reset() {
        return CLOSED;
    }

    /** We may still send on it (HEADERS, DATA, trailers). */
    public boolean canSend() {
        return this == OPEN || this == HALF_CLOSED_REMOTE;
    }

    /** The peer may still send on it. */
    public boolean canReceive() {
        return this == OPEN || this == HALF_CLOSED_LOCAL;
    }
}
