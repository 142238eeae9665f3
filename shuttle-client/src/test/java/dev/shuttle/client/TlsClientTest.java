package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.FixtureServer;
import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.ServerTimeouts;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import dev.shuttle.transport.tls.TlsInfo;
import dev.shuttle.wire.HttpVersion;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** https against Shuttle's TLS server (and impostors): reuse, resumption, trace, watching, and every clear error. */
class TlsClientTest {
    private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.generate();

    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong closedAtServer = new AtomicLong();
    private HttpServer server;

    @BeforeEach
    void start() throws IOException {
        server = start(ServerTimeouts.defaults());
    }

    private HttpServer start(ServerTimeouts timeouts) throws IOException {
        // HTTP/1.1 over TLS is what this test is about: the server offers http/1.1 alone in ALPN (it would pick h2,
        // which the client offers by default; HTTP/2 over TLS is JettyInteropTest's and ShuttleServerInteropTest's).
        return HttpServer.builder()
                .tls(CERTIFICATE.serverContext())
                .http2(dev.shuttle.server.Http2Options.disabled())
                .timeouts(timeouts)
                .connectionListener((connection, from, to) -> {
                    if (to == ConnectionState.NEW) {
                        accepted.incrementAndGet();
                    } else if (to == ConnectionState.CLOSED) {
                        closedAtServer.incrementAndGet();
                    }
                })
                .handler((request, response) -> response.send("tls " + request.path()))
                .start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String url(String path) {
        return "https://localhost:" + server.port() + path;
    }

    /** Records the TLS events. */
    private static final class TlsTrace implements ClientTrace {
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<TlsInfo> handshakes = new CopyOnWriteArrayList<>();
        final List<IOException> failures = new CopyOnWriteArrayList<>();

        @Override
        public void tlsHandshakeStart(Origin origin) {
            events.add("tlsHandshakeStart");
        }

        @Override
        public void tlsHandshakeDone(Origin origin, TlsInfo tls, IOException error) {
            events.add("tlsHandshakeDone");
            if (tls != null) {
                handshakes.add(tls);
            } else {
                failures.add(error);
            }
        }

        @Override
        public void connectDone(Origin origin, java.net.InetSocketAddress address, IOException error) {
            events.add("connectDone");
        }

        @Override
        public void gotConn(ConnectionInfo connection) {
            events.add("gotConn");
        }
    }

    @Test
    void httpsReusesOneConnectionAndReportsItsTls() throws Exception {
        TlsTrace trace = new TlsTrace();
        try (HttpClient client = HttpClient.builder().sslContext(CERTIFICATE.clientContext()).trace(trace).build()) {
            for (int i = 0; i < 3; i++) {
                try (Response response = client.send(Request.get(url("/" + i)))) {
                    assertThat(response.string()).isEqualTo("tls /" + i);
                    ConnectionInfo connection = response.connection();
                    assertThat(connection.reused()).isEqualTo(i > 0);
                    assertThat(connection.protocol()).isEqualTo(HttpVersion.HTTP_1_1);
                    assertThat(connection.tls()).isNotNull();
                    assertThat(connection.tls().applicationProtocol()).isEqualTo("http/1.1");
                }
            }
        }
        assertThat(accepted).hasValue(1);
        assertThat(trace.events).containsSubsequence("connectDone", "tlsHandshakeStart", "tlsHandshakeDone",
                "gotConn", "gotConn", "gotConn");
        assertThat(trace.handshakes).singleElement().satisfies(tls -> {
            assertThat(tls.protocol()).isEqualTo("TLSv1.3");
            assertThat(tls.resumed()).isFalse();
        });
    }

    @Test
    void aSecondConnectionThroughTheSameContextResumesItsSession() throws Exception {
        SSLContext shared = CERTIFICATE.clientContext();
        TlsTrace trace = new TlsTrace();
        for (int i = 0; i < 2; i++) {
            try (HttpClient client = HttpClient.builder().sslContext(shared).trace(trace).build();
                 Response response = client.send(Request.get(url("/r")))) {
                assertThat(response.string()).isEqualTo("tls /r");
            }
        }
        assertThat(trace.handshakes).extracting(TlsInfo::resumed).containsExactly(false, true);
    }

    @Test
    void anUntrustedCertificateSaysSo() throws Exception {
        TlsTrace trace = new TlsTrace();
        try (HttpClient client = HttpClient.builder().trace(trace).build()) { // the JDK's trust store
            assertThatThrownBy(() -> client.send(Request.get(url("/")))).isInstanceOf(SSLHandshakeException.class)
                    .hasMessageContaining("certificate is not trusted").hasMessageContaining("https://localhost:");
        }
        assertThat(trace.failures).singleElement().isInstanceOf(SSLHandshakeException.class);
    }

    @Test
    void aCertificateForAnotherHostSaysSo() throws Exception {
        SelfSignedCertificate other = SelfSignedCertificate.generate(List.of("example.test"));
        try (HttpServer elsewhere = HttpServer.builder().tls(other.serverContext())
                .handler((request, response) -> response.send("x")).start();
             HttpClient client = HttpClient.builder().sslContext(other.clientContext()).build()) {
            assertThatThrownBy(() -> client.send(Request.get("https://localhost:" + elsewhere.port() + "/")))
                    .isInstanceOf(SSLHandshakeException.class)
                    .hasMessageContaining("does not name localhost");
            // Without hostname verification (tests only) the same certificate is accepted.
            try (HttpClient lax = HttpClient.builder().sslContext(other.clientContext()).hostnameVerification(false)
                    .build(); Response response = lax.send(Request.get("https://localhost:" + elsewhere.port() + "/"))) {
                assertThat(response.string()).isEqualTo("x");
            }
        }
    }

    @Test
    void aSilentServerTimesTheHandshakeOut() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
             HttpClient client = HttpClient.builder().sslContext(CERTIFICATE.clientContext())
                     .tlsHandshakeTimeout(Duration.ofMillis(300)).build()) {
            Thread acceptor = Thread.ofVirtual().start(() -> {
                try (Socket ignored = silent.accept()) {
                    Thread.sleep(5_000);
                } catch (IOException | InterruptedException e) {
                    // test over
                }
            });
            assertThatThrownBy(() -> client.send(Request.get("https://localhost:" + silent.getLocalPort() + "/")))
                    .isInstanceOfSatisfying(HttpTimeoutException.class,
                            e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.TLS_HANDSHAKE))
                    .hasMessageContaining("TLS handshake");
            acceptor.interrupt();
        }
    }

    @Test
    void aPlaintextServerOnTheTlsPortSaysSo() throws Exception {
        try (FixtureServer plain = new FixtureServer();
             HttpClient client = HttpClient.builder().sslContext(CERTIFICATE.clientContext()).build()) {
            assertThatThrownBy(() -> client.send(Request.get("https://127.0.0.1:" + plain.port() + "/cl/1"))
                    .close()).isInstanceOf(SSLHandshakeException.class).hasMessageContaining("plaintext HTTP");
        }
    }

    @Test
    void anIdleTlsConnectionIsWatchedKeepsWorkingAndIsClosedWhenTheServerClosesIt() throws Exception {
        server.close();
        server = start(ServerTimeouts.builder().idle(Duration.ofMillis(500)).build());
        AtomicLong clock = new AtomicLong(System.nanoTime());
        try (HttpClient client = HttpClient.builder().sslContext(CERTIFICATE.clientContext())
                .nanoClock(clock::get).build()) {
            client.send(Request.get(url("/one"))).close();
            clock.addAndGet(Duration.ofSeconds(2).toNanos());
            ClientInternals.pool(client).maintain(clock.get()); // idle long enough: into the watcher
            try (Response response = client.send(Request.get(url("/two")))) {
                assertThat(response.string()).isEqualTo("tls /two");
                assertThat(response.connection().reused()).as("taken back from the watcher").isTrue();
            }
            clock.addAndGet(Duration.ofSeconds(2).toNanos());
            ClientInternals.pool(client).maintain(clock.get());
            // The server's idle timeout (500 ms) closes it; the watcher notices without any request.
            Await.until("the client closed it", () -> client.stats().connectionsClosed() == 1);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
            try (Response response = client.send(Request.get(url("/three")))) {
                assertThat(response.connection().reused()).isFalse();
            }
            assertThat(client.stats().retries()).isZero();
        }
    }
}
