package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.testing.RecordingTrace;
import dev.shuttle.client.testing.SquidProxy;
import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.HttpServer;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import dev.shuttle.wire.HttpVersion;
import java.io.IOException;
import java.net.Proxy;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Through Debian's squid, started by the test: plain http in absolute form, https through CONNECT tunnels (HTTP/2
 * inside by ALPN, HTTP/1.1 too), each tunnel reused for the origin's requests, with and without Basic credentials
 * (from the proxy URL, or answering the 407). Skipped, saying so, without squid ({@code apt-get install squid}).
 */
class SquidProxyTest {
    private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.generate();

    @TempDir
    static Path openDir;
    @TempDir
    static Path authDir;
    private static SquidProxy open;
    private static SquidProxy authenticating;
    private static HttpServer plain;
    private static HttpServer tlsH2;
    private static HttpServer tlsHttp1;
    private static final AtomicInteger targetConnections = new AtomicInteger();
    private static final List<String> seen = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        Optional<Path> squid = SquidProxy.binary();
        Assumptions.assumeTrue(squid.isPresent(), "squid is not installed (apt-get install squid): skipping");
        open = SquidProxy.start(squid.get(), openDir);
        if (SquidProxy.canAuthenticate()) {
            authenticating = SquidProxy.start(squid.get(), authDir, Map.of("ada", "lovelace"));
        }
        plain = server(HttpServer.builder());
        tlsH2 = server(HttpServer.builder().tls(CERTIFICATE.serverContext()));
        tlsHttp1 = server(HttpServer.builder().tls(CERTIFICATE.serverContext())
                .http2(dev.shuttle.server.Http2Options.disabled()));
    }

    private static HttpServer server(HttpServer.Builder builder) throws IOException {
        return builder.port(0)
                .connectionListener((connection, from, to) -> {
                    if (to == ConnectionState.NEW) {
                        targetConnections.incrementAndGet();
                    }
                })
                .handler((request, response) -> {
                    seen.add(request.method() + " " + request.target() + " host=" + request.header("Host")
                            + " proxy-auth=" + request.header("Proxy-Authorization"));
                    response.send("hello via " + request.header("Via"));
                }).start();
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable closeable : new AutoCloseable[] {open, authenticating, plain, tlsH2, tlsHttp1}) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    private static HttpClient client(String proxyUrl) {
        return HttpClient.builder().proxy(Proxies.of(proxyUrl)).sslContext(CERTIFICATE.clientContext()).build();
    }

    private static URI https(HttpServer server, String path) {
        return URI.create("https://localhost:" + server.port() + path);
    }

    @Test
    void plainHttpGoesToTheProxyInAbsoluteForm() throws Exception {
        seen.clear();
        try (HttpClient client = client(open.url(null))) {
            for (int i = 0; i < 5; i++) {
                CompletedResponse<String> answer = client.send(
                        Request.get(URI.create("http://127.0.0.1:" + plain.port() + "/plain/" + i)),
                        BodyHandler.ofString());
                assertThat(answer.body()).startsWith("hello via").contains("squid");
                assertThat(answer.connection().proxied()).isTrue();
                assertThat(answer.connection().remoteAddress().getPort()).isEqualTo(open.port());
            }
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        }
        assertThat(seen).first().asString().startsWith("GET /plain/0 host=127.0.0.1:" + plain.port());
        assertThat(open.accessLog()).anyMatch(line -> line.contains("GET http://127.0.0.1:" + plain.port()
                + "/plain/0"));
    }

    @Test
    void httpsGoesThroughOneReusedTunnelWithHttp2Inside() throws Exception {
        RecordingTrace trace = new RecordingTrace();
        List<String> tunnels = new CopyOnWriteArrayList<>();
        int before = targetConnections.get();
        try (HttpClient client = HttpClient.builder().proxy(Proxies.of(open.url(null)))
                .sslContext(CERTIFICATE.clientContext()).trace(new ClientTrace() {
                    @Override
                    public void tunnelDone(Origin origin, Proxy proxy, IOException error) {
                        java.net.InetSocketAddress address = (java.net.InetSocketAddress) proxy.address();
                        tunnels.add(origin + " via " + address.getHostString() + ":" + address.getPort()
                                + (error == null ? " open" : " " + error));
                    }
                }).build()) {
            for (int i = 0; i < 10; i++) {
                CompletedResponse<String> answer = client.send(Request.newBuilder(https(tlsH2, "/h2/" + i))
                        .trace(trace).build(), BodyHandler.ofString());
                assertThat(answer.version()).isEqualTo(HttpVersion.HTTP_2);
                assertThat(answer.connection().proxied()).isTrue();
                assertThat(answer.connection().tls().applicationProtocol()).isEqualTo("h2");
            }
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        }
        assertThat(tunnels).containsExactly("https://localhost:" + tlsH2.port() + " via 127.0.0.1:" + open.port()
                + " open");
        assertThat(targetConnections.get() - before).as("one tunnel, one connection at the origin").isEqualTo(1);
        assertThat(trace.reusedCount()).isEqualTo(9);
    }

    @Test
    void http1InsideATunnelIsReusedToo() throws Exception {
        int before = targetConnections.get();
        try (HttpClient client = client(open.url(null))) {
            for (int i = 0; i < 5; i++) {
                try (Response response = client.send(Request.get(https(tlsHttp1, "/h1/" + i)))) {
                    assertThat(response.version()).isEqualTo(HttpVersion.HTTP_1_1);
                    assertThat(response.status()).isEqualTo(200); // closed unread: drained, kept
                }
            }
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        }
        assertThat(targetConnections.get() - before).isEqualTo(1);
    }

    @Test
    void credentialsFromTheProxyUrlAreSentUpFront() throws Exception {
        Assumptions.assumeTrue(authenticating != null, "squid's basic_ncsa_auth or openssl missing: skipping");
        seen.clear();
        try (HttpClient client = client(authenticating.url("ada:lovelace"))) {
            assertThat(client.send(Request.get(URI.create("http://127.0.0.1:" + plain.port() + "/auth")),
                    BodyHandler.ofString()).status()).isEqualTo(200);
            assertThat(client.send(Request.get(https(tlsH2, "/auth")), BodyHandler.ofString()).status())
                    .isEqualTo(200);
        }
        assertThat(seen).allMatch(line -> line.endsWith("proxy-auth=null"), "squid does not pass credentials on");
        assertThat(authenticating.accessLog().stream().filter(line -> line.contains("/auth")))
                .noneMatch(line -> line.contains("TCP_DENIED")).isNotEmpty();
    }

    @Test
    void aProxyAuthenticatorAnswersThe407() throws Exception {
        Assumptions.assumeTrue(authenticating != null, "squid's basic_ncsa_auth or openssl missing: skipping");
        try (HttpClient client = HttpClient.builder().proxy(Proxies.of(authenticating.url(null)))
                .proxyAuthenticator(Authenticator.basic("ada", "lovelace"))
                .sslContext(CERTIFICATE.clientContext()).build()) {
            assertThat(client.send(Request.get(URI.create("http://127.0.0.1:" + plain.port() + "/407")),
                    BodyHandler.ofString()).status()).isEqualTo(200);
            assertThat(client.send(Request.get(https(tlsH2, "/407")), BodyHandler.ofString()).status())
                    .isEqualTo(200);
        }
    }

    @Test
    void wrongCredentialsAreRefusedOnceAndSaidSo() throws Exception {
        Assumptions.assumeTrue(authenticating != null, "squid's basic_ncsa_auth or openssl missing: skipping");
        try (HttpClient client = HttpClient.builder().proxy(Proxies.of(authenticating.url("ada:wrong")))
                .proxyAuthenticator(Authenticator.basic("ada", "wrong"))
                .sslContext(CERTIFICATE.clientContext()).build()) {
            CompletedResponse<String> denied = client.send(
                    Request.get(URI.create("http://127.0.0.1:" + plain.port() + "/denied")), BodyHandler.ofString());
            assertThat(denied.status()).isEqualTo(407);
            assertThatThrownBy(() -> client.send(Request.get(https(tlsH2, "/denied"))))
                    .isInstanceOf(ProxyRefusedException.class)
                    .hasMessageContaining("refused CONNECT localhost:" + tlsH2.port() + ": 407");
        }
    }
}
