package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.NginxServer;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import dev.shuttle.wire.HttpVersion;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's everyday features against Debian's nginx, over HTTP/1.1 and HTTP/2 (ALPN): redirects from
 * {@code return 30x}, each hop on the connection nginx says it was. Skipped, saying so, when nginx is not installed
 * ({@code apt-get install nginx-light}).
 */
class NginxFeaturesTest {
    private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.generate();
    private static final String LOCATIONS = """
            location = /r301 { return 301 /r302; }
            location = /r302 { return 302 /r303; }
            location = /r303 { return 303 /r307; }
            location = /r307 { return 307 /r308; }
            location = /r308 { return 308 /ok; }
            location = /away { return 302 https://127.0.0.1:$server_port/ok; }
            types { text/plain txt; }
            gzip on;
            gzip_types text/plain;
            gzip_min_length 20;
            gzip_http_version 1.1;
            """;
    private static final String TEXT = "nginx compresses this line for the client to decode\n".repeat(2000);

    @TempDir
    static Path dir1;
    @TempDir
    static Path dir2;
    private static NginxServer http1;
    private static NginxServer http2;

    @BeforeAll
    static void startNginx() throws Exception {
        Optional<Path> binary = NginxServer.binary();
        Assumptions.assumeTrue(binary.isPresent(),
                "nginx is not installed (apt-get install nginx-light): skipping the nginx feature tests");
        http1 = NginxServer.start(binary.get(), dir1, CERTIFICATE, false, LOCATIONS);
        http2 = NginxServer.start(binary.get(), dir2, CERTIFICATE, true, LOCATIONS);
        for (NginxServer nginx : List.of(http1, http2)) {
            nginx.writeFile("text.txt", TEXT.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    @AfterAll
    static void stopNginx() {
        if (http1 != null) {
            http1.close();
        }
        if (http2 != null) {
            http2.close();
        }
    }

    private static NginxServer nginx(boolean h2) {
        return h2 ? http2 : http1;
    }

    private static HttpClient client() {
        return HttpClient.builder().sslContext(CERTIFICATE.clientContext()).build();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void everyRedirectStatusIsFollowedOnOneConnection(boolean h2) throws Exception {
        NginxServer nginx = nginx(h2);
        int before = nginx.accessLog().size();
        try (HttpClient client = client()) {
            CompletedResponse<String> get = client.send(Request.get(nginx.url("/r301")), BodyHandler.ofString());
            assertThat(get.body()).isEqualTo("ok\n");
            assertThat(get.version()).isEqualTo(h2 ? HttpVersion.HTTP_2 : HttpVersion.HTTP_1_1);
            Request post = Request.newBuilder(nginx.url("/r307")).POST(BodyPublisher.ofString("kept")).build();
            CompletedResponse<String> posted = client.send(post, BodyHandler.ofString());
            assertThat(posted.status()).isEqualTo(200);
            assertThat(posted.request().method()).isEqualTo("POST");
            Request seeOther = Request.newBuilder(nginx.url("/r303")).POST(BodyPublisher.ofString("x")).build();
            assertThat(client.send(seeOther, BodyHandler.ofString()).request().method()).isEqualTo("GET");
        }
        // nginx logs a request once it is done with it, which for HTTP/2 may be just after the response left.
        Await.until("nginx logged 13 requests", () -> nginx.accessLog().size() >= before + 13);
        List<String> log = nginx.accessLog().subList(before, nginx.accessLog().size());
        // connection requests reused protocol uri status bytes
        assertThat(log).extracting(line -> line.split(" ")[4] + " " + line.split(" ")[5]).containsExactly(
                "/r301 301", "/r302 302", "/r303 303", "/r307 307", "/r308 308", "/ok 200",
                "/r307 307", "/r308 308", "/ok 200",
                "/r303 303", "/r307 307", "/r308 308", "/ok 200");
        assertThat(log).extracting(line -> line.split(" ")[0]).as("nginx's connection serial").containsOnly(
                log.getFirst().split(" ")[0]);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void anotherOriginGetsItsOwnConnection(boolean h2) throws Exception {
        NginxServer nginx = nginx(h2);
        try (HttpClient client = client()) {
            // The certificate names 127.0.0.1 as well as localhost: a second origin on the same server.
            CompletedResponse<String> away = client.send(Request.newBuilder(nginx.url("/away"))
                    .header("Authorization", "Basic c2VjcmV0").build(), BodyHandler.ofString());
            assertThat(away.body()).isEqualTo("ok\n");
            assertThat(away.request().uri().getHost()).isEqualTo("127.0.0.1");
            assertThat(away.request().headers().contains("Authorization")).isFalse();
            assertThat(client.stats().connectionsOpened()).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void gzipFromNginxIsDecodedAndAnUnreadOneKeepsTheConnection(boolean h2) throws Exception {
        NginxServer nginx = nginx(h2);
        try (HttpClient client = client()) {
            try (Response response = client.send(Request.get(nginx.url("/text.txt")))) {
                assertThat(response.decodedEncoding()).isEqualTo("gzip");
                assertThat(response.header("Content-Encoding")).isNull();
                assertThat(response.string()).isEqualTo(TEXT);
            }
            String connection = null;
            for (int i = 0; i < 10; i++) {
                try (Response unread = client.send(Request.get(nginx.url("/text.txt")))) {
                    assertThat(unread.decodedEncoding()).isEqualTo("gzip");
                    connection = connection == null ? unread.header("X-Connection") : connection;
                    assertThat(unread.header("X-Connection")).isEqualTo(connection);
                }
            }
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        }
    }
}
