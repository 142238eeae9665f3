package dev.shuttle.wire.http2;

/** PING (RFC 9113 section 6.7): 8 opaque octets, echoed back with ACK. Always on stream 0. */
public record PingFrame(long opaqueData, boolean ack) implements Http2Frame {
    /** Payload length, fixed. */
    public static final int LENGTH = 8;

    @Override
    public int type() {
        return TYPE_PING;
    }

    @Override
    public int streamId() {
        return 0;
    }
}
