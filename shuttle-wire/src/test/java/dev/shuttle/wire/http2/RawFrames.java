package dev.shuttle.wire.http2;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Builds frame octets by hand, independently of {@link Http2FrameWriter}, so reader tests do not trust the writer. */
final class RawFrames {
    private RawFrames() {
    }

    /** A frame whose header says {@code length}, followed by {@code payload} (which may differ from length). */
    static byte[] frame(int length, int type, int flags, int streamId, byte... payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(length >>> 16);
        out.write(length >>> 8);
        out.write(length);
        out.write(type);
        out.write(flags);
        out.write(streamId >>> 24);
        out.write(streamId >>> 16);
        out.write(streamId >>> 8);
        out.write(streamId);
        out.writeBytes(payload);
        return out.toByteArray();
    }

    /** A frame whose length is its payload's. */
    static byte[] frame(int type, int flags, int streamId, byte... payload) {
        return frame(payload.length, type, flags, streamId, payload);
    }

    static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    static byte[] remaining(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    /** Reads every frame from {@code input} fed whole. */
    static List<Http2Frame> readWhole(Http2FrameReader reader, byte[] input) throws Http2Exception {
        ByteBuffer buffer = ByteBuffer.wrap(input);
        List<Http2Frame> frames = new ArrayList<>();
        for (Http2Frame frame = reader.read(buffer); frame != null; frame = reader.read(buffer)) {
            frames.add(detach(frame));
        }
        if (buffer.hasRemaining()) {
            throw new AssertionError(buffer.remaining() + " octets left over");
        }
        return frames;
    }

    /**
     * Reads every frame from {@code input} made visible one octet at a time, checking that an incomplete frame
     * consumes nothing; payload slices are copied before the buffer moves on.
     */
    static List<Http2Frame> readByteByByte(Http2FrameReader reader, byte[] input) throws Http2Exception {
        ByteBuffer buffer = ByteBuffer.wrap(input);
        buffer.limit(0);
        List<Http2Frame> frames = new ArrayList<>();
        while (true) {
            int before = buffer.position();
            Http2Frame frame = reader.read(buffer);
            if (frame != null) {
                frames.add(detach(frame));
                continue;
            }
            if (buffer.position() != before) {
                throw new AssertionError("an incomplete frame was consumed");
            }
            if (buffer.limit() == buffer.capacity()) {
                if (buffer.hasRemaining()) {
                    throw new AssertionError(buffer.remaining() + " octets left over");
                }
                return frames;
            }
            buffer.limit(buffer.limit() + 1);
        }
    }

    /** The same frame with its payload views copied, so it survives the input buffer. */
    static Http2Frame detach(Http2Frame frame) {
        return switch (frame) {
            case DataFrame f -> new DataFrame(f.streamId(), copy(f.data()), f.endStream(), f.padding());
            case HeadersFrame f -> new HeadersFrame(f.streamId(), copy(f.fragment()), f.endStream(), f.endHeaders(),
                    f.priority(), f.padding());
            case PushPromiseFrame f -> new PushPromiseFrame(f.streamId(), f.promisedStreamId(), copy(f.fragment()),
                    f.endHeaders(), f.padding());
            case ContinuationFrame f -> new ContinuationFrame(f.streamId(), copy(f.fragment()), f.endHeaders());
            case UnknownFrame f -> new UnknownFrame(f.type(), f.flags(), f.streamId(), copy(f.payload()));
            default -> frame;
        };
    }

    static ByteBuffer copy(ByteBuffer buffer) {
        return ByteBuffer.wrap(remaining(buffer));
    }
}
