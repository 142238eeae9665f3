package dev.shuttle.mockserver;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A deliberately plain h2c client over one socket (prior knowledge), for steering the server's goodbye frame by
 * frame: it writes what the test says, answers the server's SETTINGS, and reads frames one at a time.
 */
final class RawH2 implements AutoCloseable {
    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int SETTINGS = 0x4;
    static final int PING = 0x6;
    static final int GOAWAY = 0x7;
    private static final int END_STREAM = 0x1;
    private static final int ACK = 0x1;
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    /** One frame as read; for a GOAWAY, {@link #lastStreamId()} and {@link #errorCode()} read its payload. */
    record Frame(int type, int flags, int streamId, byte[] payload) {
        int lastStreamId() {
            return ByteBuffer.wrap(payload).getInt() & 0x7fff_ffff;
        }

        int errorCode() {
            return ByteBuffer.wrap(payload, 4, 4).getInt();
        }
    }

    /** Connects to 127.0.0.1:{@code port} and sends the preface and an empty SETTINGS. */
    RawH2(int port) throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(10_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
        out.write(PREFACE);
        send(SETTINGS, 0, 0, new byte[0]);
    }

    void send(int type, int flags, int streamId, byte[] payload) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(9 + payload.length);
        frame.put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length);
        frame.put((byte) type).put((byte) flags).putInt(streamId).put(payload);
        out.write(frame.array());
        out.flush();
    }

    /** {@code GET /} on {@code streamId}, then the frames up to the end of its response. */
    void get(int streamId) throws IOException {
        byte[] authority = "127.0.0.1".getBytes(StandardCharsets.US_ASCII);
        ByteBuffer block = ByteBuffer.allocate(5 + authority.length);
        // HPACK static table: :method GET, :scheme http, :path /; then :authority as a literal without indexing
        block.put((byte) 0x82).put((byte) 0x86).put((byte) 0x84).put((byte) 0x01).put((byte) authority.length)
                .put(authority);
        send(HEADERS, 0x4 | END_STREAM, streamId, block.array());
        Frame frame;
        do {
            frame = next();
        } while (frame.streamId() != streamId || (frame.flags() & END_STREAM) == 0
                || (frame.type() != DATA && frame.type() != HEADERS));
    }

    /** The next frame of a type other than SETTINGS (answered with an ACK) and WINDOW_UPDATE. */
    Frame next() throws IOException {
        while (true) {
            int length;
            try {
                length = in.readUnsignedByte() << 16 | in.readUnsignedShort();
            } catch (EOFException e) {
                throw new AssertionError("the server closed before the frame the test waits for", e);
            }
            int type = in.readUnsignedByte();
            int flags = in.readUnsignedByte();
            int streamId = in.readInt() & 0x7fff_ffff;
            byte[] payload = in.readNBytes(length);
            if (type == SETTINGS) {
                if ((flags & ACK) == 0) {
                    send(SETTINGS, ACK, 0, new byte[0]);
                }
            } else if (type != 0x8) {
                return new Frame(type, flags, streamId, payload);
            }
        }
    }

    /** Reads the next frame, which must be of {@code type}. */
    Frame expect(int type) throws IOException {
        Frame frame = next();
        if (frame.type() != type) {
            throw new AssertionError("expected frame type " + type + ", got " + frame);
        }
        return frame;
    }

    /** Reads and drops what the server still sends until it closes its side. */
    void readToEnd() throws IOException {
        byte[] sink = new byte[8192];
        while (in.read(sink) >= 0) {
            // dropped
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
