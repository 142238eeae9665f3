package dev.shuttle.mockserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link MockServer.Builder#countFrames()}: the server's GOAWAYs, over h2c (through the relay) and TLS. */
@Timeout(30)
class FrameCountingTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void countsTheGoAwayOfAConnectionErrorAsSentBeforeTheClientClosed(boolean tls) throws Exception {
        try (MockServer server = start(tls); Socket socket = connect(server, tls)) {
            OutputStream out = socket.getOutputStream();
            out.write(PREFACE);
            out.write(frame(0x4, 0, 0, new byte[0]));
            out.write(frame(0x0, 0, 0, new byte[4])); // DATA on stream 0: a connection error (RFC 9113 6.1)
            out.flush();
            assertThat(readUntilGoAway(socket.getInputStream())).isEqualTo(1); // PROTOCOL_ERROR
            assertThat(server.goAwaysSent()).isEqualTo(1);
            assertThat(server.goAwaysBeforeClientClosed()).isEqualTo(1);
            assertThat(server.goAways()).singleElement().satisfies(goAway -> {
                assertThat(goAway.errorName()).isEqualTo("PROTOCOL_ERROR");
                assertThat(goAway.beforeClientClosed()).isTrue();
            });
        }
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void aClientThatClosesUnreadAndThenClosesSeesNoGoAwayBeforeItsClose(boolean tls) throws Exception {
        try (MockServer server = start(tls)) {
            HttpClient.Builder builder = HttpClient.builder().http2(true).http2PriorKnowledge(true);
            if (tls) {
                builder.sslContext(server.clientContext());
            }
            try (HttpClient client = builder.build()) {
                for (int i = 0; i < 20; i++) {
                    try (Response response = client.send(Request.get(server.url("/")))) {
                        assertThat(response.version()).isEqualTo(dev.shuttle.wire.HttpVersion.HTTP_2);
                    }
                }
            }
            assertThat(server.awaitConnectionsClosed(WAIT)).isTrue();
            assertThat(server.connections()).isEqualTo(1);
            assertThat(server.goAwaysBeforeClientClosed()).as(server.describe()).isZero();
        }
    }

    @Test
    void framesAreCountedOnlyWhereAsked() throws Exception {
        try (MockServer server = MockServer.builder().http2().start()) {
            assertThat(server.countsFrames()).isFalse();
            assertThatThrownBy(server::goAways).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("countFrames()");
        }
        assertThatThrownBy(() -> MockServer.builder().countFrames().start())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("http2()");
    }

    private static MockServer start(boolean tls) throws IOException {
        MockServer.Builder builder = MockServer.builder().http2().countFrames()
                .respondWith(MockResponse.ofSize(2048));
        return (tls ? builder.tls() : builder).start();
    }

    private static Socket connect(MockServer server, boolean tls) throws IOException {
        Socket socket;
        if (tls) {
            SSLSocket ssl = (SSLSocket) server.clientContext().getSocketFactory()
                    .createSocket(InetAddress.getLoopbackAddress(), server.port());
            SSLParameters parameters = ssl.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"h2"});
            ssl.setSSLParameters(parameters);
            ssl.startHandshake();
            assertThat(ssl.getApplicationProtocol()).isEqualTo("h2");
            socket = ssl;
        } else {
            socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
        }
        socket.setSoTimeout(10_000);
        return socket;
    }

    /** Reads frames until a GOAWAY and returns its error code. */
    private static int readUntilGoAway(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        while (true) {
            int length;
            try {
                length = in.readUnsignedByte() << 16 | in.readUnsignedShort();
            } catch (EOFException e) {
                throw new AssertionError("the server closed without a GOAWAY", e);
            }
            int type = in.readUnsignedByte();
            in.readUnsignedByte();
            in.readInt();
            byte[] payload = in.readNBytes(length);
            if (type == 0x7) {
                return ByteBuffer.wrap(payload, 4, 4).getInt();
            }
        }
    }

    private static byte[] frame(int type, int flags, int streamId, byte[] payload) {
        ByteBuffer frame = ByteBuffer.allocate(9 + payload.length);
        frame.put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length);
        frame.put((byte) type).put((byte) flags).putInt(streamId).put(payload);
        return frame.array();
    }
}
