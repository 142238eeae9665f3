package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.transport.tls.SelfSignedCertificate;
import dev.shuttle.wire.HttpVersion;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP/2 with clients no one here wrote: curl (prior knowledge, Upgrade, TLS with ALPN), nghttp, and the JDK client;
 * the same handler serves HTTP/1.1 and HTTP/2, and the listener sees the same states with the protocol.
 */
class Http2ServerTest {
    private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.generate();

    private final RecordingListener states = new RecordingListener();
    private final List<HttpVersion> protocols = new CopyOnWriteArrayList<>();
    private HttpServer server;

    @TempDir
    Path dir;

    @BeforeEach
    void start() throws IOException {
        server = start(null);
    }

    private HttpServer start(javax.net.ssl.SSLContext tls) throws IOException {
        HttpServer.Builder builder = HttpServer.builder()
                .connectionListener(states)
                .handler(Http2ServerTest::handle);
        if (tls != null) {
            builder.tls(tls);
        }
        return builder.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** /echo echoes the body; /big/N sends N bytes in pieces; /trailers ends with a trailer; else "v=VERSION path". */
    private static void handle(Request request, Response response) throws IOException {
        switch (request.path()) {
            case "/echo" -> response.header("Content-Type", "application/octet-stream").send(request.bodyBytes());
            case "/trailers" -> {
                response.trailers(dev.shuttle.wire.Headers.of("x-checksum", "42"));
                response.body().write("with trailers".getBytes(StandardCharsets.UTF_8));
            }
            default -> {
                if (request.path().startsWith("/big/")) {
                    int size = Integer.parseInt(request.path().substring(5));
                    byte[] block = new byte[1000];
                    OutputStream out = response.body();
                    for (int sent = 0; sent < size; sent += block.length) {
                        out.write(block, 0, Math.min(block.length, size - sent));
                    }
                } else {
                    response.send("v=" + request.version() + " " + request.path() + " host="
                            + request.header("Host"));
                }
            }
        }
    }

    private String url(String scheme, String path) {
        return scheme + "://localhost:" + server.port() + path;
    }

    @Test
    void curlWithPriorKnowledgeGetsHttp2() throws Exception {
        // One URL: curl 7.88 fails a second transfer on a prior-knowledge connection (exit 16) with any server,
        // Jetty's included; reuse is shown with nghttp below.
        TlsServerTest.ProcessResult result = TlsServerTest.run(List.of("curl", "-s", "--http2-prior-knowledge",
                "-w", "\\n%{http_code} %{http_version}\\n", url("http", "/a")));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout().lines()).containsExactly("v=HTTP/2 /a host=localhost:" + server.port(), "200 2");
    }

    @Test
    void nghttpSendsSeveralRequestsOnOneConnection() throws Exception {
        TlsServerTest.ProcessResult result = TlsServerTest.run(List.of("nghttp", url("http", "/one"),
                url("http", "/two"), url("http", "/three")));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout()).contains("v=HTTP/2 /one", "v=HTTP/2 /two", "v=HTTP/2 /three");
        assertThat(states.count(ConnectionState.NEW)).isEqualTo(1);
        assertThat(server.stats().requests()).isEqualTo(3);
    }

    @Test
    void curlUpgradesFromHttp11() throws Exception {
        TlsServerTest.ProcessResult result = TlsServerTest.run(List.of("curl", "-s", "--http2",
                "-w", "\\n%{http_code} %{http_version}\\n", url("http", "/up"), url("http", "/again")));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout().lines()).containsExactly("v=HTTP/2 /up host=localhost:" + server.port(),
                "200 2", "v=HTTP/2 /again host=localhost:" + server.port(), "200 2");
        assertThat(states.count(ConnectionState.NEW)).isEqualTo(1);
    }

    @Test
    void curlOverTlsNegotiatesH2() throws Exception {
        server.close();
        server = start(CERTIFICATE.serverContext());
        Path ca = dir.resolve("ca.pem");
        CERTIFICATE.writeAuthorityPem(ca);
        Path first = dir.resolve("first");
        TlsServerTest.ProcessResult result = TlsServerTest.run(List.of("curl", "-s", "--cacert", ca.toString(),
                "-o", first.toString(), "-o", "/dev/null", "-w", "%{num_connects} %{http_version} %{size_download}\\n",
                url("https", "/tls"), url("https", "/big/100000")));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(java.nio.file.Files.readString(first)).isEqualTo("v=HTTP/2 /tls host=localhost:" + server.port());
        assertThat(result.stdout().lines()).containsExactly("1 2 " + first.toFile().length(), "0 2 100000");
    }

    @Test
    void curlPostsABodyAndReadsTrailers() throws Exception {
        byte[] body = new byte[300_000];
        java.util.Arrays.fill(body, (byte) 'x');
        Path file = dir.resolve("body");
        java.nio.file.Files.write(file, body);
        TlsServerTest.ProcessResult echo = TlsServerTest.run(List.of("curl", "-s", "--http2-prior-knowledge",
                "--data-binary", "@" + file, "-o", dir.resolve("out").toString(), "-w", "%{size_download}",
                url("http", "/echo")));
        assertThat(echo.exitCode()).as(echo.stderr()).isZero();
        assertThat(echo.stdout()).isEqualTo("300000");
        assertThat(java.nio.file.Files.readAllBytes(dir.resolve("out"))).isEqualTo(body);
    }

    @Test
    void nghttpSeesTrailersAndManyStreams() throws Exception {
        TlsServerTest.ProcessResult result = TlsServerTest.run(List.of("nghttp", "-v", url("http", "/trailers")));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout()).contains("x-checksum: 42").contains("with trailers");
        TlsServerTest.ProcessResult load = TlsServerTest.run(List.of("h2load", "-n", "2000", "-c", "4", "-m", "16",
                url("http", "/load")));
        assertThat(load.exitCode()).as(load.stderr()).isZero();
        assertThat(load.stdout()).contains("2000 succeeded, 0 failed, 0 errored");
    }

    @Test
    void theJdkClientUpgradesToH2c() throws Exception {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build()) {
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> response = client.send(
                        HttpRequest.newBuilder(URI.create(url("http", "/jdk" + i))).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
                assertThat(response.body()).startsWith("v=HTTP/2 /jdk" + i);
            }
        }
    }

    @Test
    void anIdleH2cConnectionParksAndTheListenerSaysHttp2() throws Exception {
        TlsServerTest.ProcessResult result = TlsServerTest.run(List.of("curl", "-s", "--http2-prior-knowledge",
                url("http", "/p")));
        assertThat(result.exitCode()).isZero();
        states.awaitCount(ConnectionState.CLOSED, 1);
        assertThat(states.statesOf(1)).containsSubsequence(ConnectionState.NEW, ConnectionState.ACTIVE,
                ConnectionState.CLOSED);
        assertThat(states.events()).allSatisfy(event ->
                assertThat(event.connection().protocol()).isEqualTo(HttpVersion.HTTP_2));
        assertThat(server.stats().requests()).isEqualTo(1);
    }
}
