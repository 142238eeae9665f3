package dev.shuttle.server.http2;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.hpack.HpackDecoder;
import dev.shuttle.wire.hpack.HpackEncoder;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.GoAwayFrame;
import dev.shuttle.wire.http2.HeadersFrame;
import dev.shuttle.wire.http2.Http2Exception;
import dev.shuttle.wire.http2.Http2Fields;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2FrameReader;
import dev.shuttle.wire.http2.Http2FrameWriter;
import dev.shuttle.wire.http2.Http2Limits;
import dev.shuttle.wire.http2.Http2Preface;
import dev.shuttle.wire.http2.Http2RequestHead;
import dev.shuttle.wire.http2.RstStreamFrame;
import dev.shuttle.wire.http2.SettingsFrame;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * A frame-level HTTP/2 client for attack tests, built from the wire module's frame writer, reader and HPACK codec: it
 * sends exactly the frames a test asks for, valid or not, and reads what the server answers. Not thread-safe.
 */
final class FrameClient implements AutoCloseable {
    /** What the server did with one stream: its status (0 if none), its body, how it was reset (-1 if not). */
    record StreamOutcome(int status, byte[] body, int resetCode) {
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final HpackEncoder encoder = new HpackEncoder();
    private final HpackDecoder decoder = new HpackDecoder(Http2Limits.clientDefaults());
    private final Http2FrameReader reader = new Http2FrameReader(Http2Limits.clientDefaults().maxFrameSize());
    private final ByteBuffer received = ByteBuffer.allocate(reader.requiredBufferSize()).flip();
    private boolean ended;
    /** The connection ended with a reset rather than the server's FIN. */
    private boolean endedByReset;

    /** Connects, sends the preface and an empty SETTINGS, as every client does first. */
    FrameClient(InetSocketAddress address) throws IOException {
        this(connect(address));
    }

    /** Over TLS, with ALPN {@code h2}; then as over plaintext. */
    static FrameClient overTls(InetSocketAddress address, SSLContext context) throws IOException {
        SSLSocket secure = (SSLSocket) context.getSocketFactory().createSocket(connect(address), "localhost",
                address.getPort(), true);
        SSLParameters parameters = secure.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {"h2"});
        secure.setSSLParameters(parameters);
        secure.startHandshake();
        if (!"h2".equals(secure.getApplicationProtocol())) {
            throw new IOException("the server did not choose h2: " + secure.getApplicationProtocol());
        }
        return new FrameClient(secure);
    }

    private static Socket connect(InetSocketAddress address) throws IOException {
        Socket plain = new Socket();
        plain.connect(address, 5000);
        plain.setSoTimeout(10_000);
        plain.setTcpNoDelay(true);
        return plain;
    }

    private FrameClient(Socket connected) throws IOException {
        socket = connected;
        in = socket.getInputStream();
        out = socket.getOutputStream();
        ByteBuffer start = ByteBuffer.allocate(64);
        Http2Preface.write(start);
        Http2FrameWriter.write(start, SettingsFrame.of(List.of()));
        sendRaw(start);
    }

    Socket socket() {
        return socket;
    }

    void send(Http2Frame... frames) throws IOException {
        int length = 0;
        for (Http2Frame frame : frames) {
            length += Http2FrameWriter.encodedLength(frame);
        }
        ByteBuffer buffer = ByteBuffer.allocate(length);
        for (Http2Frame frame : frames) {
            Http2FrameWriter.write(buffer, frame);
        }
        sendRaw(buffer);
    }

    /** Frames encoded by the caller, as one write (a flood goes out in few packets). */
    void sendRaw(ByteBuffer writeMode) throws IOException {
        writeMode.flip();
        out.write(writeMode.array(), writeMode.arrayOffset() + writeMode.position(), writeMode.remaining());
        out.flush();
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** An HPACK block for a GET of {@code path} (and {@code extra} fields, name then value). */
    ByteBuffer requestBlock(String method, String path, String... extra) {
        Headers.Builder headers = Headers.builder();
        for (int i = 0; i < extra.length; i += 2) {
            headers.add(extra[i], extra[i + 1]);
        }
        List<String> fields = Http2Fields.request(new Http2RequestHead(method, "http", "t", path, headers.build()));
        ByteBuffer block = ByteBuffer.allocate(HpackEncoder.maxEncodedLength(fields));
        encoder.encode(fields, block);
        return block.flip();
    }

    /** Trailers ending {@code streamId}'s request body: {@code fields}, name then value. */
    HeadersFrame trailers(int streamId, String... fields) {
        List<String> list = List.of(fields);
        ByteBuffer block = ByteBuffer.allocate(HpackEncoder.maxEncodedLength(list));
        encoder.encode(list, block);
        return new HeadersFrame(streamId, block.flip(), true, true);
    }

    HeadersFrame request(int streamId, String path, boolean endStream) {
        return new HeadersFrame(streamId, requestBlock("GET", path), endStream, true);
    }

    /**
     * The next frame, or null at EOF or reset. A frame the reader refuses fails the test: the server must never
     * send one.
     */
    Http2Frame read() throws IOException {
        if (ended) {
            return null;
        }
        while (true) {
            Http2Frame frame;
            try {
                frame = reader.read(received);
            } catch (Http2Exception e) {
                throw new IOException("the server sent an invalid frame", e);
            }
            if (frame != null) {
                return frame;
            }
            received.compact();
            int n;
            try {
                n = in.read(received.array(), received.position(), received.remaining());
            } catch (SocketTimeoutException e) {
                received.flip();
                throw e;
            } catch (IOException e) {
                n = -1; // reset by the server: as good as EOF here, but remembered
                endedByReset = true;
            }
            if (n < 0) {
                received.flip();
                ended = true;
                return null;
            }
            received.position(received.position() + n).flip();
        }
    }

    /** Whether the connection ended with a TCP reset instead of the server's FIN (after {@link #read} saw the end). */
    boolean endedByReset() {
        return endedByReset;
    }

    /** Reads until GOAWAY arrives (returned) or the connection ends without one (null). */
    GoAwayFrame awaitGoAway() throws IOException {
        for (Http2Frame frame; (frame = read()) != null; ) {
            if (frame instanceof GoAwayFrame goAway) {
                return goAway;
            }
        }
        return null;
    }

    /** Reads until the connection ends; true when it did (rather than the read timing out). */
    boolean awaitEnd() throws IOException {
        while (read() != null) {
            // discard
        }
        return true;
    }

    /**
     * Reads until the response head of {@code streamId} arrived, decoding every field block on the way (the HPACK
     * tables stay in step) and dropping other frames; a GOAWAY or the connection's end fails.
     */
    void awaitHead(int streamId) throws IOException {
        for (Http2Frame frame; (frame = read()) != null; ) {
            if (frame instanceof GoAwayFrame goAway) {
                throw new IOException("GOAWAY " + goAway.errorCode() + " while waiting for stream " + streamId);
            }
            if (frame instanceof HeadersFrame headers) {
                try {
                    decoder.decode(headers.fragment(), (name, value) -> { });
                } catch (Http2Exception e) {
                    throw new IOException(e);
                }
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
    StreamOutcome awaitStream(int streamId) throws IOException {
        Map<String, String> fields = new HashMap<>();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Http2Frame frame; (frame = read()) != null; ) {
            if (frame instanceof HeadersFrame headers) {
                Map<String, String> target = headers.streamId() == streamId ? fields : new HashMap<>();
                try {
                    decoder.decode(headers.fragment(), target::put);
                } catch (Http2Exception e) {
                    throw new IOException(e);
                }
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

    /** Every frame until the read times out or the connection ends; for tests that inspect a burst of answers. */
    List<Http2Frame> drain(int quietMillis) throws IOException {
        List<Http2Frame> frames = new ArrayList<>();
        int previous = socket.getSoTimeout();
        socket.setSoTimeout(quietMillis);
        try {
            for (Http2Frame frame; (frame = read()) != null; ) {
                frames.add(frame);
            }
        } catch (SocketTimeoutException e) {
            // quiet: done
        } finally {
            socket.setSoTimeout(previous);
        }
        return frames;
    }

    private static int status(Map<String, String> fields) {
        String status = fields.get(":status");
        return status == null ? 0 : Integer.parseInt(status);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
