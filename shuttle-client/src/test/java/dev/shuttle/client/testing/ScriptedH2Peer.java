package dev.shuttle.client.testing;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.hpack.HpackDecoder;
import dev.shuttle.wire.hpack.HpackEncoder;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.HeaderBlockAssembler;
import dev.shuttle.wire.http2.HeadersFrame;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2FrameReader;
import dev.shuttle.wire.http2.Http2FrameWriter;
import dev.shuttle.wire.http2.Http2Fields;
import dev.shuttle.wire.http2.Http2Limits;
import dev.shuttle.wire.http2.Http2Preface;
import dev.shuttle.wire.http2.Http2ResponseHead;
import dev.shuttle.wire.http2.PingFrame;
import dev.shuttle.wire.http2.SettingsFrame;
import dev.shuttle.wire.http2.WindowUpdateFrame;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An h2c server made of Shuttle's wire codec and a blocking socket, driven frame by frame by the test: for the faults
 * a real server will not stage on cue (GOAWAY between two streams, REFUSED_STREAM, a peer that stops granting
 * window, a PING to a parked connection). Every read is bounded (5 s), so a test that expects a frame that never
 * comes fails instead of hanging.
 */
public final class ScriptedH2Peer implements AutoCloseable {
    private final ServerSocket server;
    private final BlockingQueue<Socket> accepted = new LinkedBlockingQueue<>();
    private final Thread acceptor;

    public ScriptedH2Peer() throws IOException {
        this(0);
    }

    /**
     * @param receiveBufferBytes the accepted sockets' receive buffer (0: the system's): a small one makes a peer that
     *                           stops reading block the client's writes after a few KiB
     */
    public ScriptedH2Peer(int receiveBufferBytes) throws IOException {
        server = new ServerSocket();
        if (receiveBufferBytes > 0) {
            server.setReceiveBufferSize(receiveBufferBytes);
        }
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        acceptor = Thread.ofPlatform().daemon().name("scripted-h2-accept").start(() -> {
            try {
                while (true) {
                    accepted.add(server.accept());
                }
            } catch (IOException e) {
                // closed
            }
        });
    }

    public int port() {
        return server.getLocalPort();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    /** The next connection, after the preface and the SETTINGS exchange ({@code settings} are the peer's). */
    public Conn accept(SettingsFrame.Setting... settings) throws IOException, InterruptedException {
        Socket socket = accepted.poll(5, TimeUnit.SECONDS);
        if (socket == null) {
            throw new AssertionError("no connection within 5 s");
        }
        Conn conn = new Conn(socket);
        conn.handshake(List.of(settings));
        return conn;
    }

    /** Connections accepted but not taken with {@link #accept} yet. */
    public int pendingConnections() {
        return accepted.size();
    }

    @Override
    public void close() throws IOException {
        server.close();
        acceptor.interrupt();
    }

    /** A request as the peer received it. */
    public record ReceivedRequest(int streamId, Map<String, String> fields, boolean endStream) {
        public String method() {
            return fields.get(":method");
        }
    }

    /** One accepted connection. Owned by the test thread. */
    public static final class Conn implements AutoCloseable {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024).flip();
        private final Http2FrameReader reader = new Http2FrameReader();
        private final HeaderBlockAssembler blocks = new HeaderBlockAssembler(Http2Limits.serverDefaults());
        private final HpackDecoder decoder = new HpackDecoder(Http2Limits.serverDefaults());
        private final HpackEncoder encoder = new HpackEncoder();
        /** Connection-level WINDOW_UPDATE increments received so far. */
        private long connectionCredit;
        private int pingsAnswered;

        Conn(Socket socket) throws IOException {
            this.socket = socket;
            socket.setSoTimeout(5_000);
            socket.setTcpNoDelay(true);
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
        }

        void handshake(List<SettingsFrame.Setting> settings) throws IOException {
            while (Http2Preface.read(buffer) != Http2Preface.Match.COMPLETE) {
                fill();
            }
            send(SettingsFrame.of(settings));
            Http2Frame first = nextRaw();
            if (!(first instanceof SettingsFrame clientSettings) || clientSettings.ack()) {
                throw new AssertionError("expected the client's SETTINGS, got " + first);
            }
            send(SettingsFrame.ACK);
        }

        /** The next frame, whatever it is (PINGs are answered and returned too). */
        public Http2Frame nextRaw() throws IOException {
            while (true) {
                Http2Frame frame = reader.read(buffer);
                if (frame != null) {
                    Http2Frame whole = blocks.accept(frame);
                    if (whole == null) {
                        continue;
                    }
                    if (whole instanceof WindowUpdateFrame update && update.streamId() == 0) {
                        connectionCredit += update.increment();
                    }
                    if (whole instanceof PingFrame ping && !ping.ack()) {
                        send(new PingFrame(ping.opaqueData(), true));
                        pingsAnswered++;
                    }
                    return whole;
                }
                fill();
            }
        }

        /**
         * The next frame of {@code type}, skipping SETTINGS ACKs, WINDOW_UPDATEs and PINGs (answered) on the way;
         * any other frame first fails the test.
         */
        public <T extends Http2Frame> T expect(Class<T> type) throws IOException {
            while (true) {
                Http2Frame frame = nextRaw();
                if (type.isInstance(frame)) {
                    return type.cast(frame);
                }
                boolean noise = frame instanceof WindowUpdateFrame || frame instanceof PingFrame
                        || (frame instanceof SettingsFrame settings && settings.ack());
                if (!noise) {
                    throw new AssertionError("expected " + type.getSimpleName() + ", got " + frame);
                }
            }
        }

        /** The next request's HEADERS, decoded. */
        public ReceivedRequest expectRequest() throws IOException {
            return decode(expect(HeadersFrame.class));
        }

        /** The next request's HEADERS, skipping DATA of earlier streams (a refused stream's body, say). */
        public ReceivedRequest expectRequestAfterData() throws IOException {
            while (true) {
                Http2Frame frame = nextRaw();
                if (frame instanceof HeadersFrame headers) {
                    return decode(headers);
                }
            }
        }

        private ReceivedRequest decode(HeadersFrame headers) throws IOException {
            Map<String, String> fields = new LinkedHashMap<>();
            decoder.decode(headers.fragment(), fields::put);
            return new ReceivedRequest(headers.streamId(), fields, headers.endStream());
        }

        /** Reads a request body to END_STREAM; returns its length. */
        public long expectBody(int streamId) throws IOException {
            long total = 0;
            while (true) {
                DataFrame data = expect(DataFrame.class);
                if (data.streamId() != streamId) {
                    throw new AssertionError("DATA on stream " + data.streamId() + ", expected " + streamId);
                }
                total += data.data().remaining();
                if (data.endStream()) {
                    return total;
                }
            }
        }

        public void respond(int streamId, int status, String body) throws IOException {
            byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            sendHeaders(streamId, status, Headers.of("content-length", Integer.toString(bytes.length)),
                    bytes.length == 0);
            if (bytes.length > 0) {
                sendData(streamId, bytes, true);
            }
        }

        public void sendHeaders(int streamId, int status, Headers headers, boolean endStream) throws IOException {
            write(headers(streamId, status, headers, endStream, 0).flip());
        }

        /** A head without END_STREAM and {@code data} in one write: the client reads them as one batch. */
        public void sendHeadersAndData(int streamId, int status, Headers headers, DataFrame data)
                throws IOException {
            ByteBuffer bytes = headers(streamId, status, headers, false, Http2FrameWriter.encodedLength(data));
            Http2FrameWriter.write(bytes, data);
            write(bytes.flip());
        }

        /** The HEADERS (and CONTINUATION) frames of a response head, with {@code room} octets to spare after them. */
        private ByteBuffer headers(int streamId, int status, Headers headers, boolean endStream, int room) {
            List<String> fields = Http2Fields.response(new Http2ResponseHead(status, headers));
            ByteBuffer block = ByteBuffer.allocate(HpackEncoder.maxEncodedLength(fields));
            encoder.encode(fields, block);
            block.flip();
            ByteBuffer frame = ByteBuffer.allocate(Http2FrameWriter.headerBlockLength(block.remaining(), 16_384)
                    + room);
            Http2FrameWriter.writeHeaderBlock(frame, streamId, block, endStream, 16_384);
            return frame;
        }

        /** DATA in frames of at most 16 KiB. */
        public void sendData(int streamId, byte[] bytes, boolean endStream) throws IOException {
            int offset = 0;
            do {
                int n = Math.min(16_384, bytes.length - offset);
                boolean last = offset + n == bytes.length;
                send(new DataFrame(streamId, ByteBuffer.wrap(bytes, offset, n), endStream && last));
                offset += n;
            } while (offset < bytes.length);
        }

        public void send(Http2Frame frame) throws IOException {
            sendAll(List.of(frame));
        }

        /**
         * Sends up to {@code max} PINGs, {@code batch} per write, reading nothing, until a write fails because the
         * client closed the connection; returns how many were sent in full.
         */
        public long floodPings(int batch, long max) {
            List<PingFrame> pings = new ArrayList<>(batch);
            for (int i = 0; i < batch; i++) {
                pings.add(new PingFrame(i, false));
            }
            long sent = 0;
            try {
                while (sent < max) {
                    sendAll(pings);
                    sent += batch;
                }
            } catch (IOException e) {
                // the client closed the connection
            }
            return sent;
        }

        /** {@code frames} in one socket write: the client reads them together, as one batch. */
        public void sendAll(List<? extends Http2Frame> frames) throws IOException {
            int length = 0;
            for (Http2Frame frame : frames) {
                length += Http2FrameWriter.encodedLength(frame);
            }
            ByteBuffer bytes = ByteBuffer.allocate(length);
            for (Http2Frame frame : frames) {
                Http2FrameWriter.write(bytes, frame);
            }
            write(bytes.flip());
        }

        private void write(ByteBuffer bytes) throws IOException {
            out.write(bytes.array(), bytes.position(), bytes.remaining());
            out.flush();
        }

        private void fill() throws IOException {
            buffer.compact();
            try {
                int n = in.read(buffer.array(), buffer.position(), buffer.remaining());
                if (n < 0) {
                    throw new IOException("client closed the connection");
                }
                buffer.position(buffer.position() + n);
            } catch (SocketTimeoutException e) {
                throw new AssertionError("no frame from the client within 5 s", e);
            } finally {
                buffer.flip();
            }
        }

        /** Whether the client closed the connection (reads to EOF, skipping frames, within 5 s). */
        public boolean closedByClient() throws IOException {
            try {
                while (true) {
                    nextRaw();
                }
            } catch (IOException e) {
                return true;
            }
        }

        public long connectionCredit() {
            return connectionCredit;
        }

        public int pingsAnswered() {
            return pingsAnswered;
        }

        /** Frames read while looking for others are not kept: for assertions on what a client sends, in order. */
        public List<Http2Frame> drainAvailable() throws IOException {
            List<Http2Frame> frames = new ArrayList<>();
            socket.setSoTimeout(200);
            try {
                while (true) {
                    frames.add(nextRaw());
                }
            } catch (AssertionError | IOException e) {
                return frames;
            } finally {
                socket.setSoTimeout(5_000);
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
