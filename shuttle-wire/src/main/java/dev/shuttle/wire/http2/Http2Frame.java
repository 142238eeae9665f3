package dev.shuttle.wire.http2;

/**
 * One HTTP/2 frame (RFC 9113 sections 4 and 6), as {@link Http2FrameReader} returns it and
 * {@link Http2FrameWriter} writes it. One record per frame type, so a connection can {@code switch} over them.
 *
 * <p>Payload views: DATA, HEADERS, PUSH_PROMISE, CONTINUATION and unknown frames expose their payload as a
 * {@link java.nio.ByteBuffer} <em>slice of the reader's input buffer</em>, not a copy, so a busy receive path copies
 * each byte once (into the stream's inbound queue, or through the HPACK decoder). A slice is valid only until the
 * caller compacts, clears or refills that input buffer; consume or copy it first. The accessors return a fresh
 * duplicate each time, so reading a payload never changes the frame (its {@code flowControlledLength()}, its
 * equality). Frames built for writing refer to the caller's buffer, whose remaining bytes must not change until the
 * frame is written; the writer does not move its position. GOAWAY debug data is copied, since it is rare and usually
 * kept for a log line after the read buffer has moved on.
 */
public sealed interface Http2Frame permits DataFrame, HeadersFrame, PriorityFrame, RstStreamFrame, SettingsFrame,
        PushPromiseFrame, PingFrame, GoAwayFrame, WindowUpdateFrame, ContinuationFrame, UnknownFrame {

    /** Length, type, flags and stream identifier: the 9 octets before every payload (section 4.1). */
    int HEADER_LENGTH = 9;
    /** Largest payload the 24-bit length field can describe, and the upper bound of SETTINGS_MAX_FRAME_SIZE. */
    int MAX_PAYLOAD_LENGTH = (1 << 24) - 1;
    /** Largest stream id: the top bit of the 32-bit field is reserved. */
    int MAX_STREAM_ID = Integer.MAX_VALUE;

    int TYPE_DATA = 0x0;
    int TYPE_HEADERS = 0x1;
    int TYPE_PRIORITY = 0x2;
    int TYPE_RST_STREAM = 0x3;
    int TYPE_SETTINGS = 0x4;
    int TYPE_PUSH_PROMISE = 0x5;
    int TYPE_PING = 0x6;
    int TYPE_GOAWAY = 0x7;
    int TYPE_WINDOW_UPDATE = 0x8;
    int TYPE_CONTINUATION = 0x9;

    int FLAG_END_STREAM = 0x1;
    int FLAG_ACK = 0x1;
    int FLAG_END_HEADERS = 0x4;
    int FLAG_PADDED = 0x8;
    int FLAG_PRIORITY = 0x20;

    /** The frame's type octet. */
    int type();

    /** The stream the frame belongs to; 0 for frames about the whole connection. */
    int streamId();

    /** Checks a padding amount as the records store it: 0 (no PADDED flag) or 1 + the Pad Length octet. */
    static int checkPadding(int padding) {
        if (padding < 0 || padding > 256) {
            throw new IllegalArgumentException("padding must be 0 (none) or 1..256 (pad length octet + padding): "
                    + padding);
        }
        return padding;
    }

    static int checkStreamId(int streamId, boolean zeroAllowed) {
        if (streamId < 0 || (streamId == 0 && !zeroAllowed)) {
            throw new IllegalArgumentException("invalid stream id " + streamId);
        }
        return streamId;
    }
}
