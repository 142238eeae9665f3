package dev.shuttle.wire.http2;

import java.util.Objects;

/** PRIORITY (RFC 9113 section 6.3): deprecated signalling, still parsed and checked. {@code streamId} is never 0. */
public record PriorityFrame(int streamId, Priority priority) implements Http2Frame {
    public PriorityFrame {
        Http2Frame.checkStreamId(streamId, false);
        Objects.requireNonNull(priority, "priority");
    }

    @Override
    public int type() {
        return TYPE_PRIORITY;
    }
}
