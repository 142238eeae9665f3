package dev.shuttle.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.transport.tls.SelfSignedCertificate;
import dev.shuttle.transport.tls.TlsInfo;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** TLS over loopback between two {@link TlsTransport}s (and a plaintext impostor), with a generated certificate. */
class TlsTransportTest {
    private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.generate();
    private static final Function<List<String>, String> PREFER_H2 =
            offered -> offered.contains("h2") ? "h2" : offered.contains("http/1.1") ? "http/1.1" : "";

    private BufferPool buffers = new BufferPool(16);
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final SSLContext serverContext = CERTIFICATE.serverContext();
    private ServerSocketChannel listener;

    @BeforeEach
    void listen() throws IOException {
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        toClose.add(listener);
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : toClose) {
            closeable.close();
        }
    }

    /** A connected pair: the server side handshakes on a virtual thread; the client side is returned unhandshaken. */
    private record Pair(TlsTransport client, CompletableFuture<TlsTransport> server) {
        TlsTransport handshaken() throws Exception {
            client.handshake(10_000);
            return server.get(10, TimeUnit.SECONDS);
        }
    }

    private Pair pair(SSLContext clientContext, String host, List<String> alpn) throws IOException {
        SocketChannel clientChannel = SocketChannel.open(listener.getLocalAddress());
        SocketChannel serverChannel = listener.accept();
        toClose.add(clientChannel);
        toClose.add(serverChannel);
        TlsTransport server = TlsTransport.server(serverChannel, buffers, System::nanoTime, serverContext, PREFER_H2);
        CompletableFuture<TlsTransport> handshaken = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                server.handshake(10_000);
                handshaken.complete(server);
            } catch (Throwable t) {
                handshaken.completeExceptionally(t);
            }
        });
        TlsTransport client = TlsTransport.client(clientChannel, buffers, System::nanoTime, clientContext, host,
                listener.socket().getLocalPort(), alpn, true);
        return new Pair(client, handshaken);
    }

    private Pair pair(List<String> alpn) throws IOException {
        return pair(CERTIFICATE.clientContext(), "localhost", alpn);
    }

    private static byte[] readExactly(Transport transport, int length, int chunk) throws IOException {
        byte[] result = new byte[length];
        ByteBuffer buffer = ByteBuffer.allocate(chunk);
        int got = 0;
        while (got < length) {
            buffer.clear().limit(Math.min(chunk, length - got));
            int n = transport.read(buffer, 10_000);
            assertThat(n).as("bytes before the end").isPositive();
            buffer.flip();
            buffer.get(result, got, n);
            got += n;
        }
        return result;
    }

    @Test
    void bytesFlowBothWaysAndAlpnPicksH2() throws Exception {
        Pair pair = pair(List.of("h2", "http/1.1"));
        TlsTransport server = pair.handshaken();
        TlsInfo info = pair.client().tls();
        assertThat(info.applicationProtocol()).isEqualTo("h2");
        assertThat(server.tls().applicationProtocol()).isEqualTo("h2");
        assertThat(info.protocol()).isEqualTo("TLSv1.3");
        assertThat(info.resumed()).isFalse();
        pair.client().write("ping".getBytes(), 0, 4);
        assertThat(new String(readExactly(server, 4, 64))).isEqualTo("ping");
        server.write("pong!".getBytes(), 0, 5);
        assertThat(new String(readExactly(pair.client(), 5, 64))).isEqualTo("pong!");
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 20, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void handshakeRecordsLargerThanThePoolsBuffersStillGoOut() throws Exception {
        // Without the retry the handshake loop spins on NEED_WRAP: a separate thread lets the timeout end the test.
        // The server's certificate flight does not fit 512 bytes: each wrap overflows and must be retried into a
        // buffer of the session's packet size, though there is no application data to wrap.
        buffers = new BufferPool(512, 16);
        TlsTransport server = pair(List.of("http/1.1")).handshaken();
        server.write("after".getBytes(), 0, 5);
        assertThat(server.tls().protocol()).isEqualTo("TLSv1.3");
    }

    @Test
    void alpnFallsBackToHttp11AndToNoneWhenNothingIsOffered() throws Exception {
        Pair http11 = pair(List.of("http/1.1"));
        http11.handshaken();
        assertThat(http11.client().tls().applicationProtocol()).isEqualTo("http/1.1");
        Pair none = pair(List.of());
        none.handshaken();
        assertThat(none.client().tls().applicationProtocol()).isNull();
    }

    @Test
    void aMegabyteCrossesInRecordsLargerThanTheReadersRoom() throws Exception {
        Pair pair = pair(List.of());
        TlsTransport server = pair.handshaken();
        byte[] payload = new byte[1 << 20];
        new Random(7).nextBytes(payload);
        Thread writer = Thread.ofVirtual().start(() -> {
            try {
                server.write(payload, 0, payload.length);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        // 1000-byte reads: most 16 KiB records do not fit and go through the pending buffer.
        assertThat(readExactly(pair.client(), payload.length, 1000)).isEqualTo(payload);
        writer.join();
    }

    @Test
    void aSecondConnectionWithTheSameContextIsResumed() throws Exception {
        SSLContext clientContext = CERTIFICATE.clientContext();
        for (String protocol : List.of("TLSv1.3", "TLSv1.2")) {
            SSLContext pinned = pinned(clientContext, protocol);
            Pair first = pair(pinned, "localhost", List.of());
            TlsTransport firstServer = first.handshaken();
            // TLS 1.3 sends its session ticket after the handshake: a round trip of data delivers it.
            firstServer.write("x".getBytes(), 0, 1);
            readExactly(first.client(), 1, 16);
            Pair second = pair(pinned, "localhost", List.of());
            TlsTransport secondServer = second.handshaken();
            assertThat(second.client().tls().protocol()).isEqualTo(protocol);
            assertThat(first.client().tls().resumed()).as(protocol + " first").isFalse();
            assertThat(second.client().tls().resumed()).as(protocol + " client").isTrue();
            assertThat(secondServer.tls().resumed()).as(protocol + " server").isTrue();
        }
    }

    /** A context that offers only {@code protocol}, sharing {@code base}'s session cache. */
    private static SSLContext pinned(SSLContext base, String protocol) {
        return new SSLContext(new javax.net.ssl.SSLContextSpi() {
            @Override
            protected void engineInit(javax.net.ssl.KeyManager[] km, javax.net.ssl.TrustManager[] tm,
                                      java.security.SecureRandom random) {
            }

            @Override
            protected javax.net.ssl.SSLSocketFactory engineGetSocketFactory() {
                return base.getSocketFactory();
            }

            @Override
            protected javax.net.ssl.SSLServerSocketFactory engineGetServerSocketFactory() {
                return base.getServerSocketFactory();
            }

            @Override
            protected javax.net.ssl.SSLEngine engineCreateSSLEngine() {
                return pin(base.createSSLEngine());
            }

            @Override
            protected javax.net.ssl.SSLEngine engineCreateSSLEngine(String host, int port) {
                return pin(base.createSSLEngine(host, port));
            }

            private javax.net.ssl.SSLEngine pin(javax.net.ssl.SSLEngine engine) {
                engine.setEnabledProtocols(new String[] {protocol});
                return engine;
            }

            @Override
            protected javax.net.ssl.SSLSessionContext engineGetServerSessionContext() {
                return base.getServerSessionContext();
            }

            @Override
            protected javax.net.ssl.SSLSessionContext engineGetClientSessionContext() {
                return base.getClientSessionContext();
            }
        }, base.getProvider(), protocol) {
        };
    }

    @Test
    void anIdleConnectionHoldsNoBufferAndKeepsWorking() throws Exception {
        Pair pair = pair(List.of());
        TlsTransport server = pair.handshaken();
        pair.client().write("one".getBytes(), 0, 3);
        assertThat(new String(readExactly(server, 3, 64))).isEqualTo("one");
        assertThat(server.hasBufferedInput()).isFalse();
        server.releaseBuffers();
        assertThat(server.holdsBuffers()).isFalse();
        pair.client().write("two".getBytes(), 0, 3);
        assertThat(new String(readExactly(server, 3, 64))).isEqualTo("two");
    }

    @Test
    void anIdleConnectionKeepsNothingFromItsHandshakeForItself() throws Exception {
        Pair pair = pair(List.of());
        TlsTransport server = pair.handshaken();
        assertThat(server.handshakeBytesKept()).isZero();
        assertThat(pair.client().handshakeBytesKept()).isZero();
        pair.client().write("one".getBytes(), 0, 3);
        assertThat(new String(readExactly(server, 3, 64))).isEqualTo("one");
        server.releaseBuffers();
        assertThat(server.handshakeBytesKept()).isZero();
        assertThat(server.holdsBuffers()).isFalse();
        pair.client().shutdownOutput(); // close_notify wraps the shared empty source: still writable
        assertThat(server.read(ByteBuffer.allocate(16), 5_000)).isEqualTo(-1);
    }

    @Test
    void aPartialRecordSurvivesGoingIdle() throws Exception {
        Pair pair = pair(List.of());
        TlsTransport server = pair.handshaken();
        pair.client().write("hello".getBytes(), 0, 5);
        ByteBuffer dst = ByteBuffer.allocate(64);
        assertThat(server.read(dst, 10_000)).isEqualTo(5);
        // The next record, sealed by the client's engine, arrives in two pieces with the server idle in between.
        SocketChannel raw = pair.client().channel();
        byte[] record = sealRecord(pair, "world");
        raw.write(ByteBuffer.wrap(record, 0, 7));
        dst.clear();
        assertThat(server.readNow(dst)).isZero(); // 7 bytes: not a whole record
        assertThat(server.hasBufferedInput()).isFalse();
        server.releaseBuffers();
        assertThat(server.holdsBuffers()).isFalse();
        raw.write(ByteBuffer.wrap(record, 7, record.length - 7));
        assertThat(new String(readExactly(server, 5, 64))).isEqualTo("world");
    }

    /** Encrypts {@code text} with the client's engine without sending it. */
    private static byte[] sealRecord(Pair pair, String text) throws IOException {
        ByteBuffer net = ByteBuffer.allocate(BufferPool.IO_BUFFER_BYTES);
        pair.client().engine().wrap(ByteBuffer.wrap(text.getBytes()), net);
        net.flip();
        byte[] record = new byte[net.remaining()];
        net.get(record);
        return record;
    }

    @Test
    void shutdownOutputSendsCloseNotifyAndThePeerSeesTheEnd() throws Exception {
        Pair pair = pair(List.of());
        TlsTransport server = pair.handshaken();
        pair.client().shutdownOutput();
        assertThat(server.read(ByteBuffer.allocate(16), 10_000)).isEqualTo(-1);
    }

    @Test
    void anUntrustedCertificateFailsTheHandshakeClearly() throws Exception {
        SSLContext trustsSomeoneElse = SelfSignedCertificate.generate().clientContext();
        Pair pair = pair(trustsSomeoneElse, "localhost", List.of());
        assertThatThrownBy(() -> pair.client().handshake(10_000)).isInstanceOf(SSLHandshakeException.class)
                .hasMessageContaining("PKIX");
    }

    @Test
    void aCertificateForAnotherHostFailsHostnameVerification() throws Exception {
        Pair pair = pair(CERTIFICATE.clientContext(), "wrong.example", List.of());
        assertThatThrownBy(() -> pair.client().handshake(10_000)).isInstanceOf(SSLHandshakeException.class)
                .hasMessageContaining("wrong.example");
    }

    @Test
    void aSilentServerTimesTheHandshakeOut() throws Exception {
        SocketChannel clientChannel = SocketChannel.open(listener.getLocalAddress());
        toClose.add(clientChannel);
        toClose.add(listener.accept()); // accepted, never answers
        TlsTransport client = TlsTransport.client(clientChannel, buffers, System::nanoTime,
                CERTIFICATE.clientContext(), "localhost", 443, List.of(), true);
        assertThatThrownBy(() -> client.handshake(200)).isInstanceOf(SocketTimeoutException.class);
    }

    @Test
    void aPlaintextServerIsRecognised() throws Exception {
        SocketChannel clientChannel = SocketChannel.open(listener.getLocalAddress());
        SocketChannel serverChannel = listener.accept();
        toClose.add(clientChannel);
        toClose.add(serverChannel);
        Thread.ofVirtual().start(() -> {
            try {
                serverChannel.read(ByteBuffer.allocate(4096));
                serverChannel.write(ByteBuffer.wrap(("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII)));
            } catch (IOException ignored) {
                // the client hung up
            }
        });
        TlsTransport client = TlsTransport.client(clientChannel, buffers, System::nanoTime,
                CERTIFICATE.clientContext(), "localhost", 443, List.of(), true);
        assertThatThrownBy(() -> client.handshake(10_000)).isInstanceOf(SSLHandshakeException.class)
                .hasMessageContaining("plaintext HTTP");
    }

    @Test
    void buffersGoBackToThePool() throws Exception {
        Pair pair = pair(List.of());
        TlsTransport server = pair.handshaken();
        for (int i = 0; i < 50; i++) {
            pair.client().write("abc".getBytes(), 0, 3);
            readExactly(server, 3, 64);
            server.releaseBuffers();
            pair.client().releaseBuffers();
        }
        assertThat(buffers.allocations()).isLessThan(10);
    }
}
