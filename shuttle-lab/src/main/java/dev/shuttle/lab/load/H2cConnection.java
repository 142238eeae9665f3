package dev.shuttle.lab.load;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * A minimal HTTP/2 client connection with prior knowledge (RFC 9113 §3.3), over a blocking socket: the preface and
 * a SETTINGS frame, {@code GET /} as one HEADERS frame of fixed HPACK bytes, and a frame reader that acknowledges
 * SETTINGS and PING, returns connection-level flow-control credit for DATA, and notices END_STREAM, RST_STREAM and
 * GOAWAY. Response headers are not decoded beyond the status (an indexed {@code :status}, as every server sends
 * 200), so the connection keeps no HPACK decoder state; it never indexes its own request fields either.
 *
 * <p>Hand-rolled rather than a peer's client: a Netty or Jetty client would be one of the servers' own libraries on
 * the other side of the wire, would bring its own idle timeouts and pings, and costs far more memory per connection
 * when the holder keeps 10 000 of them. Shuttle's own HTTP/2 client loads {@code lab busy}'s hot scenario instead
 * with {@code --generator shuttle} ({@link ShuttleClientConnection}).
 */
final class H2cConnection implements LabConnection {
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final int DATA = 0x0;
    private static final int HEADERS = 0x1;
    private static final int RST_STREAM = 0x3;
    private static final int SETTINGS = 0x4;
    private static final int PING = 0x6;
    private static final int GOAWAY = 0x7;
    private static final int WINDOW_UPDATE = 0x8;
    private static final int CONTINUATION = 0x9;
    private static final int FLAG_END_STREAM = 0x1;
    private static final int FLAG_ACK = 0x1;
    private static final int FLAG_END_HEADERS = 0x4;
    private static final int FLAG_PADDED = 0x8;
    private static final int FLAG_PRIORITY = 0x20;
    /** SETTINGS_MAX_FRAME_SIZE default; we never advertise more, so a larger frame is a protocol error. */
    private static final int MAX_FRAME = 16_384;
    /** Connection-level credit is returned once this much DATA has arrived. */
    private static final int WINDOW_UPDATE_THRESHOLD = 16_384;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final byte[] headersFrame;
    private final byte[] frameHeader = new byte[9];
    // All fields below are owned by the connection's thread.
    private final Map<Integer, Long> sentAt = new HashMap<>();
    private int nextStreamId = 1;
    private int serverMaxStreams = 100;
    private int unackedData;
    /** A HEADERS frame without END_HEADERS ended its stream: complete it when the last CONTINUATION arrives. */
    private int pendingEndStream;
    private int pendingStatus;

    H2cConnection(Socket socket, String authority) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream(), 2048);
        this.out = socket.getOutputStream();
        this.headersFrame = requestHeaders(authority);
        byte[] settings = frame(SETTINGS, 0, 0, new byte[] {0, 2, 0, 0, 0, 0}); // SETTINGS_ENABLE_PUSH = 0
        byte[] hello = new byte[PREFACE.length + settings.length];
        System.arraycopy(PREFACE, 0, hello, 0, PREFACE.length);
        System.arraycopy(settings, 0, hello, PREFACE.length, settings.length);
        out.write(hello);
        out.flush();
    }

    /**
     * HPACK for {@code :method GET} (static index 2), {@code :scheme http} (6), {@code :path /} (4) and
     * {@code :authority} as a literal without indexing whose name is static index 1 (RFC 7541 §6.2.2).
     */
    static byte[] requestBlock(String authority) {
        byte[] value = authority.getBytes(StandardCharsets.US_ASCII);
        if (value.length > 126) {
            throw new IllegalArgumentException("authority too long for a one-byte HPACK length: " + authority);
        }
        byte[] block = new byte[5 + value.length];
        block[0] = (byte) 0x82;
        block[1] = (byte) 0x86;
        block[2] = (byte) 0x84;
        block[3] = 0x01;
        block[4] = (byte) value.length;
        System.arraycopy(value, 0, block, 5, value.length);
        return block;
    }

    private static byte[] requestHeaders(String authority) {
        return frame(HEADERS, FLAG_END_STREAM | FLAG_END_HEADERS, 0, requestBlock(authority));
    }

    static byte[] frame(int type, int flags, int streamId, byte[] payload) {
        byte[] frame = new byte[9 + payload.length];
        frame[0] = (byte) (payload.length >>> 16);
        frame[1] = (byte) (payload.length >>> 8);
        frame[2] = (byte) payload.length;
        frame[3] = (byte) type;
        frame[4] = (byte) flags;
        frame[5] = (byte) (streamId >>> 24 & 0x7f);
        frame[6] = (byte) (streamId >>> 16);
        frame[7] = (byte) (streamId >>> 8);
        frame[8] = (byte) streamId;
        System.arraycopy(payload, 0, frame, 9, payload.length);
        return frame;
    }

    @Override
    public int maxInFlight() {
        return serverMaxStreams;
    }

    @Override
    public void send() throws IOException {
        int streamId = nextStreamId;
        nextStreamId += 2;
        headersFrame[5] = (byte) (streamId >>> 24 & 0x7f);
        headersFrame[6] = (byte) (streamId >>> 16);
        headersFrame[7] = (byte) (streamId >>> 8);
        headersFrame[8] = (byte) streamId;
        sentAt.put(streamId, System.nanoTime());
        out.write(headersFrame);
        out.flush();
    }

    @Override
    public Completion awaitResponse() throws IOException {
        if (sentAt.isEmpty()) {
            throw new IllegalStateException("no request outstanding");
        }
        while (true) {
            Completion done = readFrame();
            if (done != null) {
                return done;
            }
        }
    }

    @Override
    public void holdIdle() throws IOException {
        socket.setSoTimeout(0);
        try {
            while (true) {
                readFrame();
            }
        } catch (EndOfStream e) {
            // the server closed the connection
        }
    }

    /** Reads one frame and handles it; returns the completion it caused, if any. */
    private Completion readFrame() throws IOException {
        readFully(frameHeader, 9);
        int length = (frameHeader[0] & 0xff) << 16 | (frameHeader[1] & 0xff) << 8 | frameHeader[2] & 0xff;
        int type = frameHeader[3] & 0xff;
        int flags = frameHeader[4] & 0xff;
        int streamId = (frameHeader[5] & 0x7f) << 24 | (frameHeader[6] & 0xff) << 16 | (frameHeader[7] & 0xff) << 8
                | frameHeader[8] & 0xff;
        if (length > MAX_FRAME) {
            throw new IOException("frame of " + length + " bytes over SETTINGS_MAX_FRAME_SIZE");
        }
        byte[] payload = new byte[length];
        readFully(payload, length);
        switch (type) {
            case DATA -> {
                unackedData += length;
                if (unackedData >= WINDOW_UPDATE_THRESHOLD) {
                    write(frame(WINDOW_UPDATE, 0, 0, int32(unackedData)));
                    unackedData = 0;
                }
                if ((flags & FLAG_END_STREAM) != 0) {
                    return complete(streamId, pendingStatus);
                }
            }
            case HEADERS -> {
                int status = status(payload, flags);
                if ((flags & FLAG_END_HEADERS) == 0) {
                    pendingEndStream = (flags & FLAG_END_STREAM) != 0 ? streamId : 0;
                    pendingStatus = status;
                } else if ((flags & FLAG_END_STREAM) != 0) {
                    return complete(streamId, status);
                } else {
                    pendingStatus = status;
                }
            }
            case CONTINUATION -> {
                if ((flags & FLAG_END_HEADERS) != 0 && pendingEndStream == streamId && streamId != 0) {
                    pendingEndStream = 0;
                    return complete(streamId, pendingStatus);
                }
            }
            case SETTINGS -> {
                if ((flags & FLAG_ACK) == 0) {
                    for (int i = 0; i + 6 <= length; i += 6) {
                        int id = (payload[i] & 0xff) << 8 | payload[i + 1] & 0xff;
                        if (id == 0x3) {
                            serverMaxStreams = (int) Math.min(Integer.MAX_VALUE, readInt32(payload, i + 2));
                        }
                    }
                    write(frame(SETTINGS, FLAG_ACK, 0, new byte[0]));
                }
            }
            case PING -> {
                if ((flags & FLAG_ACK) == 0) {
                    write(frame(PING, FLAG_ACK, 0, payload));
                }
            }
            case RST_STREAM -> {
                if (sentAt.containsKey(streamId)) {
                    return complete(streamId, -1);
                }
            }
            case GOAWAY -> {
                long code = length >= 8 ? readInt32(payload, 4) : -1;
                throw new IOException("server sent GOAWAY, error code " + code
                        + (length > 8 ? ": " + new String(payload, 8, length - 8, StandardCharsets.UTF_8) : ""));
            }
            default -> {
                // PRIORITY, WINDOW_UPDATE (we send no bodies), unknown types: nothing to do
            }
        }
        return null;
    }

    private Completion complete(int streamId, int status) {
        Long sent = sentAt.remove(streamId);
        pendingStatus = 0;
        return new Completion(streamId, status, sent == null ? System.nanoTime() : sent);
    }

    /**
     * The status of a response header block when {@code :status} comes first as an indexed field (static entries
     * 8..14: 200, 204, 206, 304, 400, 404, 500), after any dynamic table size update; 0 when it cannot tell.
     */
    static int status(byte[] payload, int flags) {
        int i = 0;
        int end = payload.length;
        if ((flags & FLAG_PADDED) != 0) {
            end -= payload[0] & 0xff;
            i = 1;
        }
        if ((flags & FLAG_PRIORITY) != 0) {
            i += 5;
        }
        while (i < end && (payload[i] & 0xe0) == 0x20) { // dynamic table size update: 001xxxxx, 5-bit prefix
            boolean more = (payload[i] & 0x1f) == 0x1f;
            i++;
            while (more && i < end) {
                more = (payload[i] & 0x80) != 0;
                i++;
            }
        }
        if (i >= end) {
            return 0;
        }
        return switch (payload[i] & 0xff) {
            case 0x88 -> 200;
            case 0x89 -> 204;
            case 0x8a -> 206;
            case 0x8b -> 304;
            case 0x8c -> 400;
            case 0x8d -> 404;
            case 0x8e -> 500;
            default -> 0;
        };
    }

    private void write(byte[] frame) throws IOException {
        out.write(frame);
        out.flush();
    }

    private void readFully(byte[] buffer, int length) throws IOException {
        int read = 0;
        while (read < length) {
            int n = in.read(buffer, read, length - read);
            if (n < 0) {
                throw new EndOfStream();
            }
            read += n;
        }
    }

    private static byte[] int32(int value) {
        return new byte[] {(byte) (value >>> 24 & 0x7f), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
    }

    private static long readInt32(byte[] bytes, int at) {
        return ((long) (bytes[at] & 0xff) << 24 | (bytes[at + 1] & 0xff) << 16 | (bytes[at + 2] & 0xff) << 8
                | bytes[at + 3] & 0xff) & 0x7fffffffL;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** The server closed the connection. */
    static final class EndOfStream extends IOException {
        EndOfStream() {
            super("server closed the connection");
        }
    }
}
