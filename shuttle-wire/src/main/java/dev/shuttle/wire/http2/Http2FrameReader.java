package dev.shuttle.wire.http2;

import static dev.shuttle.wire.http2.Http2ErrorCode.FRAME_SIZE_ERROR;
import static dev.shuttle.wire.http2.Http2ErrorCode.PROTOCOL_ERROR;
import static dev.shuttle.wire.http2.Http2Frame.FLAG_ACK;
import static dev.shuttle.wire.http2.Http2Frame.FLAG_END_HEADERS;
import static dev.shuttle.wire.http2.Http2Frame.FLAG_END_STREAM;
import static dev.shuttle.wire.http2.Http2Frame.FLAG_PADDED;
import static dev.shuttle.wire.http2.Http2Frame.FLAG_PRIORITY;
import static dev.shuttle.wire.http2.Http2Frame.HEADER_LENGTH;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Incremental reader of HTTP/2 frames (RFC 9113 sections 4 and 6). One per connection, owned by the thread that
 * reads the connection; not thread-safe.
 *
 * <p>{@link #read(ByteBuffer)} takes the connection's read buffer in read mode and returns the next complete frame,
 * or null when the buffer does not hold one yet. It consumes nothing of an incomplete frame, so the caller can
 * compact, read more and call again, feed one byte at a time, or park the connection with half a frame in its
 * buffer. The buffer must be able to hold {@link #requiredBufferSize()} bytes, the largest frame allowed.
 *
 * <p>Everything the RFC says a receiver must check about a single frame is checked here: the length against the
 * local SETTINGS_MAX_FRAME_SIZE, fixed lengths, the stream-id rules of each type, padding, zero window increments,
 * SETTINGS values, and that a field block's CONTINUATION frames come next with nothing interleaved. The checks that
 * need only the 9-octet header run as soon as it has arrived, before the payload, so an oversized or misplaced
 * frame is refused without waiting for (or buffering) its bytes. Nothing is allocated beyond the frame record, its
 * payload slice and, for SETTINGS and GOAWAY, a copy no larger than the validated length.
 *
 * <p>Errors are {@link Http2Exception}s. Connection errors may be thrown before the frame is consumed; the reader
 * must not be used after one. Stream errors (a PRIORITY frame of the wrong length or depending on itself, a zero
 * WINDOW_UPDATE on a stream) are thrown after the frame has been consumed, so the connection can send RST_STREAM
 * and read on. A HEADERS frame that depends on itself is made a connection error: dropping it would leave the HPACK
 * decoder out of step with the peer's encoder (RFC 9113 section 5.4.1 allows treating any stream error this way).
 *
 * <p>What stays for the connection: stream states (e.g. DATA on an idle stream), flow control, whether a
 * PUSH_PROMISE is acceptable, SETTINGS acknowledgement, and frame-rate limits.
 */
public final class Http2FrameReader {
    private static final int STREAM_ID_MASK = 0x7fff_ffff;

    /** Our SETTINGS_MAX_FRAME_SIZE. Owned by the reading thread, as is the whole reader. */
    private int maxFrameSize;
    /** The stream whose field block is open (HEADERS or PUSH_PROMISE without END_HEADERS), or 0. */
    private int continuationStreamId;

    /** A reader that accepts payloads up to {@code maxFrameSize} (the value of our SETTINGS_MAX_FRAME_SIZE). */
    public Http2FrameReader(int maxFrameSize) {
        maxFrameSize(maxFrameSize);
    }

    /** A reader with the RFC's default frame size limit, 16384. */
    public Http2FrameReader() {
        this(Http2Settings.MIN_MAX_FRAME_SIZE);
    }

    public int maxFrameSize() {
        return maxFrameSize;
    }

    /**
     * Changes the accepted payload size. Raise it when sending a larger SETTINGS_MAX_FRAME_SIZE; lower it only once
     * the peer has acknowledged the smaller value, since until then it may still send larger frames.
     */
    public void maxFrameSize(int maxFrameSize) {
        if (maxFrameSize < Http2Settings.MIN_MAX_FRAME_SIZE || maxFrameSize > Http2Settings.MAX_MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("max frame size must be 16384..16777215: " + maxFrameSize);
        }
        this.maxFrameSize = maxFrameSize;
    }

    /** Capacity the input buffer needs to hold the largest acceptable frame. */
    public int requiredBufferSize() {
        return HEADER_LENGTH + maxFrameSize;
    }

    /** True between a HEADERS or PUSH_PROMISE without END_HEADERS and the CONTINUATION that ends its block. */
    public boolean inFieldBlock() {
        return continuationStreamId != 0;
    }

    /**
     * Reads the next frame from {@code in} (read mode).
     *
     * @return the frame, with {@code in} positioned after it; or null when {@code in} holds no complete frame, with
     *         its position unchanged
     * @throws Http2Exception when the peer broke a rule; see the class comment for what is consumed
     */
    public Http2Frame read(ByteBuffer in) throws Http2Exception {
        if (in.remaining() < HEADER_LENGTH) {
            return null;
        }
        int start = in.position();
        int length = (in.get(start) & 0xff) << 16 | (in.get(start + 1) & 0xff) << 8 | (in.get(start + 2) & 0xff);
        int type = in.get(start + 3) & 0xff;
        int flags = in.get(start + 4) & 0xff;
        int streamId = int32(in, start + 5) & STREAM_ID_MASK;
        checkHeader(length, type, flags, streamId);
        if (in.remaining() - HEADER_LENGTH < length) {
            return null;
        }
        int payload = start + HEADER_LENGTH;
        in.position(payload + length);
        Http2Frame frame = parsePayload(in, payload, length, type, flags, streamId);
        if ((type == Http2Frame.TYPE_HEADERS || type == Http2Frame.TYPE_PUSH_PROMISE)
                && (flags & FLAG_END_HEADERS) == 0) {
            continuationStreamId = streamId;
        } else if (type == Http2Frame.TYPE_CONTINUATION && (flags & FLAG_END_HEADERS) != 0) {
            continuationStreamId = 0;
        }
        return frame;
    }

    /** The rules that need only the frame header; all of them are connection errors. */
    private void checkHeader(int length, int type, int flags, int streamId) throws Http2Exception {
        if (length > maxFrameSize) {
            throw connection(FRAME_SIZE_ERROR, "frame of " + length + " octets exceeds SETTINGS_MAX_FRAME_SIZE "
                    + maxFrameSize);
        }
        if (continuationStreamId != 0
                && (type != Http2Frame.TYPE_CONTINUATION || streamId != continuationStreamId)) {
            throw connection(PROTOCOL_ERROR, "expected CONTINUATION on stream " + continuationStreamId
                    + ", got frame type " + type + " on stream " + streamId);
        }
        boolean padded = (flags & FLAG_PADDED) != 0;
        switch (type) {
            case Http2Frame.TYPE_DATA -> {
                requireStream(type, streamId);
                requireMinimum(type, length, padded ? 1 : 0);
            }
            case Http2Frame.TYPE_HEADERS -> {
                requireStream(type, streamId);
                requireMinimum(type, length, (padded ? 1 : 0) + ((flags & FLAG_PRIORITY) != 0 ? Priority.LENGTH : 0));
            }
            case Http2Frame.TYPE_PRIORITY, Http2Frame.TYPE_CONTINUATION -> requireStream(type, streamId);
            case Http2Frame.TYPE_RST_STREAM -> {
                requireStream(type, streamId);
                requireExactly(type, length, 4);
            }
            case Http2Frame.TYPE_SETTINGS -> {
                requireConnection(type, streamId);
                if ((flags & FLAG_ACK) != 0 && length != 0) {
                    throw connection(FRAME_SIZE_ERROR, "SETTINGS ACK with a payload of " + length + " octets");
                }
                if (length % SettingsFrame.SETTING_LENGTH != 0) {
                    throw connection(FRAME_SIZE_ERROR, "SETTINGS length " + length + " is not a multiple of 6");
                }
            }
            case Http2Frame.TYPE_PUSH_PROMISE -> {
                requireStream(type, streamId);
                requireMinimum(type, length, (padded ? 1 : 0) + 4);
            }
            case Http2Frame.TYPE_PING -> {
                requireConnection(type, streamId);
                requireExactly(type, length, PingFrame.LENGTH);
            }
            case Http2Frame.TYPE_GOAWAY -> {
                requireConnection(type, streamId);
                requireMinimum(type, length, GoAwayFrame.FIXED_LENGTH);
            }
            case Http2Frame.TYPE_WINDOW_UPDATE -> requireExactly(type, length, WindowUpdateFrame.LENGTH);
            default -> {
            }
        }
        if (type == Http2Frame.TYPE_CONTINUATION && continuationStreamId == 0) {
            throw connection(PROTOCOL_ERROR, "CONTINUATION on stream " + streamId + " without an open field block");
        }
    }

    private static Http2Frame parsePayload(ByteBuffer in, int payload, int length, int type, int flags,
                                           int streamId) throws Http2Exception {
        boolean endStream = (flags & FLAG_END_STREAM) != 0;
        boolean endHeaders = (flags & FLAG_END_HEADERS) != 0;
        switch (type) {
            case Http2Frame.TYPE_DATA -> {
                Padded body = unpad(in, payload, length, flags);
                return new DataFrame(streamId, in.slice(body.start, body.length), endStream, body.padding);
            }
            case Http2Frame.TYPE_HEADERS -> {
                int priorityLength = (flags & FLAG_PRIORITY) != 0 ? Priority.LENGTH : 0;
                int padLength = (flags & FLAG_PADDED) != 0 ? 1 : 0;
                Priority priority = null;
                if (priorityLength > 0) {
                    priority = priority(in, payload + padLength);
                    if (priority.dependency() == streamId) {
                        throw connection(PROTOCOL_ERROR, "HEADERS on stream " + streamId + " depends on itself");
                    }
                }
                Padded body = unpad(in, payload, length, flags, priorityLength);
                return new HeadersFrame(streamId, in.slice(body.start, body.length), endStream, endHeaders,
                        priority, body.padding);
            }
            case Http2Frame.TYPE_PRIORITY -> {
                if (length != Priority.LENGTH) {
                    throw Http2Exception.streamError(streamId, FRAME_SIZE_ERROR,
                            "PRIORITY frame of " + length + " octets, expected 5");
                }
                Priority priority = priority(in, payload);
                if (priority.dependency() == streamId) {
                    throw Http2Exception.streamError(streamId, PROTOCOL_ERROR, "stream depends on itself");
                }
                return new PriorityFrame(streamId, priority);
            }
            case Http2Frame.TYPE_RST_STREAM -> {
                return new RstStreamFrame(streamId, int32(in, payload));
            }
            case Http2Frame.TYPE_SETTINGS -> {
                return (flags & FLAG_ACK) != 0 ? SettingsFrame.ACK : settings(in, payload, length);
            }
            case Http2Frame.TYPE_PUSH_PROMISE -> {
                int padLength = (flags & FLAG_PADDED) != 0 ? 1 : 0;
                int promised = int32(in, payload + padLength) & STREAM_ID_MASK;
                if (promised == 0) {
                    throw connection(PROTOCOL_ERROR, "PUSH_PROMISE promising stream 0");
                }
                Padded body = unpad(in, payload, length, flags, 4);
                return new PushPromiseFrame(streamId, promised, in.slice(body.start, body.length), endHeaders,
                        body.padding);
            }
            case Http2Frame.TYPE_PING -> {
                long high = int32(in, payload) & 0xffff_ffffL;
                long low = int32(in, payload + 4) & 0xffff_ffffL;
                return new PingFrame(high << 32 | low, (flags & FLAG_ACK) != 0);
            }
            case Http2Frame.TYPE_GOAWAY -> {
                byte[] debug = new byte[length - GoAwayFrame.FIXED_LENGTH];
                in.get(payload + GoAwayFrame.FIXED_LENGTH, debug);
                return new GoAwayFrame(int32(in, payload) & STREAM_ID_MASK, int32(in, payload + 4),
                        ByteBuffer.wrap(debug));
            }
            case Http2Frame.TYPE_WINDOW_UPDATE -> {
                int increment = int32(in, payload) & STREAM_ID_MASK;
                if (increment == 0) {
                    if (streamId == 0) {
                        throw connection(PROTOCOL_ERROR, "WINDOW_UPDATE with increment 0 on the connection");
                    }
                    throw Http2Exception.streamError(streamId, PROTOCOL_ERROR, "WINDOW_UPDATE with increment 0");
                }
                return new WindowUpdateFrame(streamId, increment);
            }
            case Http2Frame.TYPE_CONTINUATION -> {
                return new ContinuationFrame(streamId, in.slice(payload, length), endHeaders);
            }
            default -> {
                return new UnknownFrame(type, flags, streamId, in.slice(payload, length));
            }
        }
    }

    /** Where the content of a possibly padded payload lies, after {@code skip} fixed octets. */
    private record Padded(int start, int length, int padding) {
    }

    private static Padded unpad(ByteBuffer in, int payload, int length, int flags) throws Http2Exception {
        return unpad(in, payload, length, flags, 0);
    }

    private static Padded unpad(ByteBuffer in, int payload, int length, int flags, int skip) throws Http2Exception {
        if ((flags & FLAG_PADDED) == 0) {
            return new Padded(payload + skip, length - skip, 0);
        }
        int padLength = in.get(payload) & 0xff;
        int remaining = length - 1 - skip;
        if (padLength > remaining) {
            throw connection(PROTOCOL_ERROR, "padding of " + padLength + " octets exceeds the " + remaining
                    + " octets left in the frame");
        }
        return new Padded(payload + 1 + skip, remaining - padLength, 1 + padLength);
    }

    private static Priority priority(ByteBuffer in, int at) {
        int word = int32(in, at);
        return new Priority(word & STREAM_ID_MASK, word < 0, (in.get(at + 4) & 0xff) + 1);
    }

    private static SettingsFrame settings(ByteBuffer in, int payload, int length) throws Http2Exception {
        List<SettingsFrame.Setting> settings = new ArrayList<>(length / SettingsFrame.SETTING_LENGTH);
        for (int at = payload; at < payload + length; at += SettingsFrame.SETTING_LENGTH) {
            int id = (in.get(at) & 0xff) << 8 | (in.get(at + 1) & 0xff);
            long value = int32(in, at + 2) & 0xffff_ffffL;
            if (Http2Settings.isKnown(id)) {
                Http2Settings.validate(id, value);
                settings.add(new SettingsFrame.Setting(id, value));
            }
        }
        return SettingsFrame.of(settings);
    }

    /** Big-endian, whatever the buffer's byte order. */
    private static int int32(ByteBuffer in, int at) {
        return (in.get(at) & 0xff) << 24 | (in.get(at + 1) & 0xff) << 16 | (in.get(at + 2) & 0xff) << 8
                | (in.get(at + 3) & 0xff);
    }

    private static void requireStream(int type, int streamId) throws Http2Exception {
        if (streamId == 0) {
            throw connection(PROTOCOL_ERROR, "frame type " + type + " on stream 0");
        }
    }

    private static void requireConnection(int type, int streamId) throws Http2Exception {
        if (streamId != 0) {
            throw connection(PROTOCOL_ERROR, "frame type " + type + " on stream " + streamId + ", expected 0");
        }
    }

    private static void requireExactly(int type, int length, int expected) throws Http2Exception {
        if (length != expected) {
            throw connection(FRAME_SIZE_ERROR, "frame type " + type + " of " + length + " octets, expected "
                    + expected);
        }
    }

    private static void requireMinimum(int type, int length, int minimum) throws Http2Exception {
        if (length < minimum) {
            throw connection(FRAME_SIZE_ERROR, "frame type " + type + " of " + length + " octets, needs at least "
                    + minimum);
        }
    }

    private static Http2Exception connection(Http2ErrorCode error, String message) {
        return Http2Exception.connectionError(error, message);
    }
}
