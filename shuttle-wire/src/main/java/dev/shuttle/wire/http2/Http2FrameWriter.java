package dev.shuttle.wire.http2;

import static dev.shuttle.wire.http2.Http2Frame.FLAG_ACK;
import static dev.shuttle.wire.http2.Http2Frame.FLAG_END_HEADERS;
import static dev.shuttle.wire.http2.Http2Frame.FLAG_END_STREAM;
import static dev.shuttle.wire.http2.Http2Frame.FLAG_PADDED;
import static dev.shuttle.wire.http2.Http2Frame.FLAG_PRIORITY;
import static dev.shuttle.wire.http2.Http2Frame.HEADER_LENGTH;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Encodes frames into a caller-supplied {@link ByteBuffer} in write mode. Stateless; every method either writes the
 * whole frame or, when {@code out} has too little room, throws {@link BufferOverflowException} having written
 * nothing. Payload buffers inside frames are read without moving their position. {@code out} must have the default
 * big-endian byte order.
 *
 * <p>The writer checks what a frame can express (lengths, ids, padding); respecting the peer's
 * SETTINGS_MAX_FRAME_SIZE and flow-control windows is the caller's job, except in
 * {@link #writeHeaderBlock(ByteBuffer, int, ByteBuffer, boolean, int)}, which splits by it.
 *
 * <p>For DATA on a busy send path, {@link #writeFrameHeader} lets a caller write just the 9 octets and hand the
 * payload buffer to a gathering write, so body bytes are never copied into a frame buffer.
 */
public final class Http2FrameWriter {
    private Http2FrameWriter() {
    }

    /** Octets {@link #write} needs for {@code frame}: the 9-octet header plus the payload. */
    public static int encodedLength(Http2Frame frame) {
        return HEADER_LENGTH + payloadLength(frame);
    }

    /**
     * Writes one frame.
     *
     * @return the number of octets written
     * @throws BufferOverflowException  when {@code out} has less than {@link #encodedLength} octets left
     * @throws IllegalArgumentException when the payload would exceed 2^24-1 octets
     */
    public static int write(ByteBuffer out, Http2Frame frame) {
        int length = payloadLength(frame);
        if (length > Http2Frame.MAX_PAYLOAD_LENGTH) {
            throw new IllegalArgumentException("payload of " + length + " octets exceeds 2^24-1");
        }
        requireRoom(out, HEADER_LENGTH + length);
        switch (frame) {
            case DataFrame f -> {
                writeFrameHeader(out, length, f.type(), flag(f.endStream(), FLAG_END_STREAM) | padFlag(f.padding()),
                        f.streamId());
                writePadded(out, f.padding(), null, f.data());
            }
            case HeadersFrame f -> {
                int flags = flag(f.endStream(), FLAG_END_STREAM) | flag(f.endHeaders(), FLAG_END_HEADERS)
                        | flag(f.priority() != null, FLAG_PRIORITY) | padFlag(f.padding());
                writeFrameHeader(out, length, f.type(), flags, f.streamId());
                writePadded(out, f.padding(), f.priority(), f.fragment());
            }
            case PriorityFrame f -> {
                writeFrameHeader(out, length, f.type(), 0, f.streamId());
                writePriority(out, f.priority());
            }
            case RstStreamFrame f -> {
                writeFrameHeader(out, length, f.type(), 0, f.streamId());
                out.putInt(f.errorCode());
            }
            case SettingsFrame f -> {
                writeFrameHeader(out, length, f.type(), flag(f.ack(), FLAG_ACK), 0);
                for (SettingsFrame.Setting setting : f.settings()) {
                    out.putShort((short) setting.id());
                    out.putInt((int) setting.value());
                }
            }
            case PushPromiseFrame f -> {
                int flags = flag(f.endHeaders(), FLAG_END_HEADERS) | padFlag(f.padding());
                writeFrameHeader(out, length, f.type(), flags, f.streamId());
                if (f.padding() > 0) {
                    out.put((byte) (f.padding() - 1));
                }
                out.putInt(f.promisedStreamId());
                putRemaining(out, f.fragment());
                putZeros(out, Math.max(0, f.padding() - 1));
            }
            case PingFrame f -> {
                writeFrameHeader(out, length, f.type(), flag(f.ack(), FLAG_ACK), 0);
                out.putLong(f.opaqueData());
            }
            case GoAwayFrame f -> {
                writeFrameHeader(out, length, f.type(), 0, 0);
                out.putInt(f.lastStreamId());
                out.putInt(f.errorCode());
                putRemaining(out, f.debugData());
            }
            case WindowUpdateFrame f -> {
                writeFrameHeader(out, length, f.type(), 0, f.streamId());
                out.putInt(f.increment());
            }
            case ContinuationFrame f -> {
                writeFrameHeader(out, length, f.type(), flag(f.endHeaders(), FLAG_END_HEADERS), f.streamId());
                putRemaining(out, f.fragment());
            }
            case UnknownFrame f -> {
                writeFrameHeader(out, length, f.type(), f.flags(), f.streamId());
                putRemaining(out, f.payload());
            }
        }
        return HEADER_LENGTH + length;
    }

    /**
     * Writes the 9-octet frame header alone, e.g. before a DATA payload that goes out in a gathering write.
     * Big-endian whatever {@code out}'s byte order.
     */
    public static void writeFrameHeader(ByteBuffer out, int length, int type, int flags, int streamId) {
        if (length < 0 || length > Http2Frame.MAX_PAYLOAD_LENGTH) {
            throw new IllegalArgumentException("frame length must be 0..2^24-1: " + length);
        }
        Http2Frame.checkStreamId(streamId, true);
        requireRoom(out, HEADER_LENGTH);
        out.put((byte) (length >>> 16));
        out.put((byte) (length >>> 8));
        out.put((byte) length);
        out.put((byte) type);
        out.put((byte) flags);
        out.put((byte) (streamId >>> 24));
        out.put((byte) (streamId >>> 16));
        out.put((byte) (streamId >>> 8));
        out.put((byte) streamId);
    }

    /**
     * Writes a whole field block as one HEADERS frame followed by as many CONTINUATION frames as
     * {@code maxFrameSize} (the peer's SETTINGS_MAX_FRAME_SIZE) requires. Nothing else may be written on the
     * connection between these frames, which is why they are written together.
     *
     * @return the octets written; {@link #headerBlockLength} tells in advance
     */
    public static int writeHeaderBlock(ByteBuffer out, int streamId, ByteBuffer block, boolean endStream,
                                       int maxFrameSize) {
        Http2Frame.checkStreamId(streamId, false);
        int total = headerBlockLength(block.remaining(), maxFrameSize);
        requireRoom(out, total);
        int first = Math.min(block.remaining(), maxFrameSize);
        boolean endHeaders = first == block.remaining();
        writeFrameHeader(out, first, Http2Frame.TYPE_HEADERS,
                flag(endStream, FLAG_END_STREAM) | flag(endHeaders, FLAG_END_HEADERS), streamId);
        writeContinuations(out, streamId, block, first, maxFrameSize);
        return total;
    }

    /** Like {@link #writeHeaderBlock} for a PUSH_PROMISE, whose first frame also carries the promised stream id. */
    public static int writePushPromiseBlock(ByteBuffer out, int streamId, int promisedStreamId, ByteBuffer block,
                                            int maxFrameSize) {
        Http2Frame.checkStreamId(streamId, false);
        Http2Frame.checkStreamId(promisedStreamId, false);
        int total = headerBlockLength(block.remaining() + 4, maxFrameSize);
        requireRoom(out, total);
        int first = Math.min(block.remaining(), maxFrameSize - 4);
        boolean endHeaders = first == block.remaining();
        writeFrameHeader(out, first + 4, Http2Frame.TYPE_PUSH_PROMISE, flag(endHeaders, FLAG_END_HEADERS), streamId);
        out.putInt(promisedStreamId);
        writeContinuations(out, streamId, block, first, maxFrameSize);
        return total;
    }

    /** Octets that a field block of {@code blockLength} takes as HEADERS plus CONTINUATION frames. */
    public static int headerBlockLength(int blockLength, int maxFrameSize) {
        if (maxFrameSize < Http2Settings.MIN_MAX_FRAME_SIZE || maxFrameSize > Http2Settings.MAX_MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("max frame size must be 16384..16777215: " + maxFrameSize);
        }
        int frames = Math.max(1, (blockLength + maxFrameSize - 1) / maxFrameSize);
        return Math.addExact(blockLength, frames * HEADER_LENGTH);
    }

    private static void writeContinuations(ByteBuffer out, int streamId, ByteBuffer block, int first,
                                           int maxFrameSize) {
        int at = block.position();
        int end = block.limit();
        out.put(out.position(), block, at, first);
        out.position(out.position() + first);
        at += first;
        while (at < end) {
            int length = Math.min(end - at, maxFrameSize);
            writeFrameHeader(out, length, Http2Frame.TYPE_CONTINUATION,
                    flag(at + length == end, FLAG_END_HEADERS), streamId);
            out.put(out.position(), block, at, length);
            out.position(out.position() + length);
            at += length;
        }
    }

    private static int payloadLength(Http2Frame frame) {
        return switch (frame) {
            case DataFrame f -> f.data().remaining() + f.padding();
            case HeadersFrame f -> f.fragment().remaining() + f.padding()
                    + (f.priority() != null ? Priority.LENGTH : 0);
            case PriorityFrame f -> Priority.LENGTH;
            case RstStreamFrame f -> 4;
            case SettingsFrame f -> f.settings().size() * SettingsFrame.SETTING_LENGTH;
            case PushPromiseFrame f -> 4 + f.fragment().remaining() + f.padding();
            case PingFrame f -> PingFrame.LENGTH;
            case GoAwayFrame f -> GoAwayFrame.FIXED_LENGTH + f.debugData().remaining();
            case WindowUpdateFrame f -> WindowUpdateFrame.LENGTH;
            case ContinuationFrame f -> f.fragment().remaining();
            case UnknownFrame f -> f.payload().remaining();
        };
    }

    /** Pad Length octet, optional priority fields, content, zero padding. */
    private static void writePadded(ByteBuffer out, int padding, Priority priority, ByteBuffer content) {
        if (padding > 0) {
            out.put((byte) (padding - 1));
        }
        if (priority != null) {
            writePriority(out, priority);
        }
        putRemaining(out, content);
        putZeros(out, Math.max(0, padding - 1));
    }

    private static void writePriority(ByteBuffer out, Priority priority) {
        out.putInt(priority.dependency() | (priority.exclusive() ? 0x8000_0000 : 0));
        out.put((byte) (priority.weight() - 1));
    }

    private static void putRemaining(ByteBuffer out, ByteBuffer content) {
        int length = content.remaining();
        out.put(out.position(), content, content.position(), length);
        out.position(out.position() + length);
    }

    private static void putZeros(ByteBuffer out, int count) {
        for (int i = 0; i < count; i++) {
            out.put((byte) 0);
        }
    }

    private static int flag(boolean set, int flag) {
        return set ? flag : 0;
    }

    private static int padFlag(int padding) {
        return padding > 0 ? FLAG_PADDED : 0;
    }

    private static void requireRoom(ByteBuffer out, int needed) {
        if (out.order() != ByteOrder.BIG_ENDIAN) {
            throw new IllegalArgumentException("frames are big-endian; the output buffer is " + out.order());
        }
        if (out.remaining() < needed) {
            throw new BufferOverflowException();
        }
    }
}
