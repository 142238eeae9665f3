package dev.shuttle.wire.testing;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.hpack.HpackDecoder;
import dev.shuttle.wire.hpack.HpackEncoder;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.GoAwayFrame;
import dev.shuttle.wire.http2.HeaderBlockAssembler;
import dev.shuttle.wire.http2.HeadersFrame;
import dev.shuttle.wire.http2.Http2Fields;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2FrameWriter;
import dev.shuttle.wire.http2.Http2Limits;
import dev.shuttle.wire.http2.Http2Preface;
import dev.shuttle.wire.http2.Http2RequestHead;
import dev.shuttle.wire.http2.Http2ResponseHead;
import dev.shuttle.wire.http2.PingFrame;
import dev.shuttle.wire.http2.RstStreamFrame;
import dev.shuttle.wire.http2.SettingsFrame;
import dev.shuttle.wire.http2.WindowUpdateFrame;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * One HTTP/2 connection that a test drives frame by frame with Shuttle's wire codec, in either role: {@link #dial}
 * opens one as a client (preface and an empty SETTINGS sent), {@link H2PeerListener#accept} takes one as a server
 * (preface read, SETTINGS exchanged). It sends exactly the frames a test asks for, valid or not, for the faults a real
 * peer will not stage on cue. Two ways to read what the other side sends:
 * <ul>
 *   <li>{@link #read}: each frame as it arrived, null once the connection ended (FIN or reset);</li>
 *   <li>{@link #nextRaw} and the {@code expect…} methods: whole field blocks (CONTINUATION joined), PINGs answered,
 *       connection-level credit counted; the end of the connection is an {@link IOException}.</li>
 * </ul>
 * Every read is bounded (10 s as a client, 5 s as a server) and fails the test with a message naming the silent side.
 * Owned by one test thread; one other thread may send while it reads.
 */
public final class H2Peer implements AutoCloseable {
    private static final int CLIENT_READ_TIMEOUT_MILLIS = 10_000;
    private static final int SERVER_READ_TIMEOUT_MILLIS = 5_000;
    private static final int MAX_FRAME = 16_384;

    /** A request as this peer received it, in the server role. */
    public record ReceivedRequest(int streamId, Map<String, String> fields, boolean endStream) {
        public String method() {
            return fields.get(":method");
        }
    }

    /** What the server did with one stream: its status (0 if none), its body, how it was reset (-1 if not). */
    public record StreamOutcome(int status, byte[] body, int resetCode) {
    }

    private final FrameChannel channel;
    private final HpackEncoder encoder = new HpackEncoder();
    /** The other side's field blocks, with this peer's role's limits. Owned by the reading thread, as are below. */
    private final HpackDecoder decoder;
    private final HeaderBlockAssembler blocks;
    /** Connection-level WINDOW_UPDATE increments seen by {@link #nextRaw}. */
    private long connectionCredit;
    private int pingsAnswered;

    private H2Peer(FrameChannel channel, Http2Limits limits) {
        this.channel = channel;
        this.decoder = new HpackDecoder(limits);
        this.blocks = new HeaderBlockAssembler(limits);
    }

    // ---- either role: opening ----

    /** Connects to {@code address} as a client: sends the preface and an empty SETTINGS, as every client does first. */
    public static H2Peer dial(InetSocketAddress address) throws IOException {
        return opened(connect(address));
    }

    /** As {@link #dial}, over TLS with ALPN {@code h2}; fails when the server does not choose h2. */
    public static H2Peer dialTls(InetSocketAddress address, SSLContext context) throws IOException {
        Socket plain = connect(address);
        SSLSocket secure = (SSLSocket) context.getSocketFactory().createSocket(plain, "localhost", address.getPort(),
                true);
        SSLParameters parameters = secure.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {"h2"});
        secure.setSSLParameters(parameters);
        secure.setSoTimeout(CLIENT_READ_TIMEOUT_MILLIS);
        secure.startHandshake();
        if (!"h2".equals(secure.getApplicationProtocol())) {
            secure.close();
            throw new IOException("the server did not choose h2: " + secure.getApplicationProtocol());
        }
        return opened(secure);
    }

    private static Socket connect(InetSocketAddress address) throws IOException {
        Socket plain = new Socket();
        plain.connect(address, 5_000);
        return plain;
    }

    private static H2Peer opened(Socket socket) throws IOException {
        H2Peer peer = new H2Peer(new FrameChannel(socket, "server", CLIENT_READ_TIMEOUT_MILLIS),
                Http2Limits.clientDefaults());
        ByteBuffer start = ByteBuffer.allocate(64);
        Http2Preface.write(start);
        Http2FrameWriter.write(start, SettingsFrame.of(List.of()));
        peer.channel.write(start.flip());
        return peer;
    }

    /** Takes an accepted socket as a server: reads the preface, sends {@code settings}, acknowledges the client's. */
    static H2Peer accepted(Socket socket, List<SettingsFrame.Setting> settings) throws IOException {
        H2Peer peer = new H2Peer(new FrameChannel(socket, "client", SERVER_READ_TIMEOUT_MILLIS),
                Http2Limits.serverDefaults());
        try {
            peer.readPreface();
            peer.send(SettingsFrame.of(settings));
            Http2Frame first = peer.nextRaw();
            if (!(first instanceof SettingsFrame clientSettings) || clientSettings.ack()) {
                throw new AssertionError("expected the client's SETTINGS, got " + first);
            }
            peer.send(SettingsFrame.ACK);
            return peer;
        } catch (IOException | RuntimeException | Error e) {
            peer.close();
            throw e;
        }
    }

    private void readPreface() throws IOException {
        byte[] preface = socket().getInputStream().readNBytes(Http2Preface.LENGTH);
        if (Http2Preface.read(ByteBuffer.wrap(preface)) != Http2Preface.Match.COMPLETE) {
            throw new AssertionError("expected the HTTP/2 preface, got " + new String(preface,
                    StandardCharsets.ISO_8859_1));
        }
    }

    public Socket socket() {
        return channel.socket();
    }

    // ---- either role: sending ----

    /** {@code frames} in one socket write: the other side reads them together, as one batch. */
    public void send(Http2Frame... frames) throws IOException {
        channel.send(List.of(frames));
    }

    /** As {@link #send}, from a list. */
    public void sendAll(List<? extends Http2Frame> frames) throws IOException {
        channel.send(frames);
    }

    /** Frames encoded by the caller into a heap buffer in write mode, as one write (a flood goes out in few packets). */
    public void sendRaw(ByteBuffer writeMode) throws IOException {
        channel.write(writeMode.flip());
    }

    public void sendRaw(byte[] bytes) throws IOException {
        channel.write(bytes);
    }

    /** DATA in frames of at most 16 KiB. */
    public void sendData(int streamId, byte[] bytes, boolean endStream) throws IOException {
        int offset = 0;
        do {
            int n = Math.min(MAX_FRAME, bytes.length - offset);
            boolean last = offset + n == bytes.length;
            send(new DataFrame(streamId, ByteBuffer.wrap(bytes, offset, n), endStream && last));
            offset += n;
        } while (offset < bytes.length);
    }

    // ---- client role: requests ----

    /** An HPACK block for {@code method} {@code path} (and {@code extra} fields, name then value). */
    public ByteBuffer requestBlock(String method, String path, String... extra) {
        Headers.Builder headers = Headers.builder();
        for (int i = 0; i < extra.length; i += 2) {
            headers.add(extra[i], extra[i + 1]);
        }
        return encode(Http2Fields.request(new Http2RequestHead(method, "http", "t", path, headers.build())));
    }

    /** A GET of {@code path} on {@code streamId}, in one HEADERS frame. */
    public HeadersFrame request(int streamId, String path, boolean endStream) {
        return new HeadersFrame(streamId, requestBlock("GET", path), endStream, true);
    }

    /** Trailers ending {@code streamId}'s request body: {@code fields}, name then value. */
    public HeadersFrame trailers(int streamId, String... fields) {
        return new HeadersFrame(streamId, encode(List.of(fields)), true, true);
    }

    private ByteBuffer encode(List<String> fields) {
        ByteBuffer block = ByteBuffer.allocate(HpackEncoder.maxEncodedLength(fields));
        encoder.encode(fields, block);
        return block.flip();
    }

    // ---- either role: reading frames as they came ----

    /** The next frame as it arrived, or null at the connection's end (FIN or reset). */
    public Http2Frame read() throws IOException {
        return channel.read();
    }

    /** Whether the connection ended with a TCP reset instead of a FIN (after {@link #read} saw the end). */
    public boolean endedByReset() {
        return channel.endedByReset();
    }

    /** Every frame as it arrived until none comes for {@code quietMillis} or the connection ends. */
    public List<Http2Frame> drain(int quietMillis) throws IOException {
        return channel.drain(quietMillis);
    }

    /** Reads until the connection ends; true when it did (a read timeout fails the test instead). */
    public boolean awaitEnd() throws IOException {
        while (read() != null) {
            // discard
        }
        return true;
    }

    /** Reads until GOAWAY arrives (returned) or the connection ends without one (null). */
    public GoAwayFrame awaitGoAway() throws IOException {
        for (Http2Frame frame; (frame = read()) != null; ) {
            if (frame instanceof GoAwayFrame goAway) {
                return goAway;
            }
        }
        return null;
    }

    // ---- client role: responses ----

    /**
     * Reads until the response head of {@code streamId} arrived, decoding every field block on the way (the HPACK
     * tables stay in step) and dropping other frames; a GOAWAY, a reset of that stream or the connection's end fails.
     */
    public void awaitHead(int streamId) throws IOException {
        for (Http2Frame frame; (frame = read()) != null; ) {
            if (frame instanceof GoAwayFrame goAway) {
                throw new IOException("GOAWAY " + goAway.errorCode() + " while waiting for stream " + streamId);
            }
            if (frame instanceof HeadersFrame headers) {
                decoder.decode(headers.fragment(), (name, value) -> { });
                if (headers.streamId() == streamId) {
                    return;
                }
            } else if (frame instanceof RstStreamFrame reset && reset.streamId() == streamId) {
                throw new IOException("stream " + streamId + " reset with " + reset.errorCode() + " before its head");
            }
        }
        throw new IOException("connection ended before the head of stream " + streamId);
    }

    /** Reads until {@code streamId} ends (END_STREAM or RST_STREAM) and tells how; other streams' frames are dropped. */
    public StreamOutcome awaitStream(int streamId) throws IOException {
        Map<String, String> fields = new HashMap<>();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Http2Frame frame; (frame = read()) != null; ) {
            if (frame instanceof HeadersFrame headers) {
                Map<String, String> target = headers.streamId() == streamId ? fields : new HashMap<>();
                decoder.decode(headers.fragment(), target::put);
                if (headers.streamId() == streamId && headers.endStream()) {
                    return new StreamOutcome(status(fields), body.toByteArray(), -1);
                }
            } else if (frame instanceof DataFrame data && data.streamId() == streamId) {
                ByteBuffer bytes = data.data();
                byte[] copy = new byte[bytes.remaining()];
                bytes.get(copy);
                body.writeBytes(copy);
                if (data.endStream()) {
                    return new StreamOutcome(status(fields), body.toByteArray(), -1);
                }
            } else if (frame instanceof RstStreamFrame reset && reset.streamId() == streamId) {
                return new StreamOutcome(status(fields), body.toByteArray(), reset.errorCode());
            }
        }
        throw new IOException("connection ended before stream " + streamId + " did");
    }

    private static int status(Map<String, String> fields) {
        String status = fields.get(":status");
        return status == null ? 0 : Integer.parseInt(status);
    }

    // ---- server role: scripted reading ----

    /** The next whole frame (PINGs are answered and returned too); the connection's end is an IOException. */
    public Http2Frame nextRaw() throws IOException {
        while (true) {
            Http2Frame frame = read();
            if (frame == null) {
                throw new IOException("the " + channel.remote() + " closed the connection");
            }
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
    }

    /**
     * The next frame of {@code type}, skipping SETTINGS ACKs, WINDOW_UPDATEs and PINGs (answered) on the way; any
     * other frame first fails the test.
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
        return decodeRequest(expect(HeadersFrame.class));
    }

    /** The next request's HEADERS, skipping DATA of earlier streams (a refused stream's body, say). */
    public ReceivedRequest expectRequestAfterData() throws IOException {
        while (true) {
            if (nextRaw() instanceof HeadersFrame headers) {
                return decodeRequest(headers);
            }
        }
    }

    private ReceivedRequest decodeRequest(HeadersFrame headers) throws IOException {
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

    /** Whether the client closed the connection (reads to its end, skipping frames; a read timeout fails). */
    public boolean closedByClient() {
        try {
            while (true) {
                nextRaw();
            }
        } catch (IOException e) {
            return true;
        }
    }

    /** Whole frames until none comes for 200 ms, for assertions on what a client sends, in order. */
    public List<Http2Frame> drainAvailable() throws IOException {
        List<Http2Frame> frames = new ArrayList<>();
        int previous = channel.readTimeoutMillis();
        channel.readTimeout(200);
        try {
            while (true) {
                frames.add(nextRaw());
            }
        } catch (AssertionError | IOException e) {
            return frames;
        } finally {
            channel.readTimeout(previous);
        }
    }

    public long connectionCredit() {
        return connectionCredit;
    }

    public int pingsAnswered() {
        return pingsAnswered;
    }

    // ---- server role: scripted answers ----

    public void respond(int streamId, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        sendHeaders(streamId, status, Headers.of("content-length", Integer.toString(bytes.length)),
                bytes.length == 0);
        if (bytes.length > 0) {
            sendData(streamId, bytes, true);
        }
    }

    public void sendHeaders(int streamId, int status, Headers headers, boolean endStream) throws IOException {
        channel.write(responseHead(streamId, status, headers, endStream, 0).flip());
    }

    /** A head without END_STREAM and {@code data} in one write: the client reads them as one batch. */
    public void sendHeadersAndData(int streamId, int status, Headers headers, DataFrame data) throws IOException {
        ByteBuffer bytes = responseHead(streamId, status, headers, false, Http2FrameWriter.encodedLength(data));
        Http2FrameWriter.write(bytes, data);
        channel.write(bytes.flip());
    }

    /** The HEADERS (and CONTINUATION) frames of a response head, with {@code room} octets to spare after them. */
    private ByteBuffer responseHead(int streamId, int status, Headers headers, boolean endStream, int room) {
        ByteBuffer block = encode(Http2Fields.response(new Http2ResponseHead(status, headers)));
        ByteBuffer frames = ByteBuffer.allocate(Http2FrameWriter.headerBlockLength(block.remaining(), MAX_FRAME)
                + room);
        Http2FrameWriter.writeHeaderBlock(frames, streamId, block, endStream, MAX_FRAME);
        return frames;
    }

    /**
     * Sends up to {@code max} PINGs, {@code batch} per write, reading nothing, until a write fails because the other
     * side closed the connection; returns how many were sent in full.
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
            // the other side closed the connection
        }
        return sent;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
