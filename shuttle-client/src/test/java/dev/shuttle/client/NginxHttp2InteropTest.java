package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.NginxServer;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import dev.shuttle.wire.HttpVersion;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shuttle's HTTP/2 client against Debian's nginx over TLS with ALPN h2 ({@code listen … ssl http2}): many concurrent
 * requests multiplexed on one connection, and large bodies closed unread costing a RST_STREAM each, not the
 * connection. Checked on nginx's side too: every request in the access log carries the same {@code $connection}.
 * Skipped, saying so, when nginx is not installed ({@code apt-get install nginx-light}).
 */
class NginxHttp2InteropTest {
    private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.generate();
    /** Larger than a stream's initial window, so a body closed unread is still arriving. */
    private static final int LARGE_BYTES = 1 << 20;

    @TempDir
    static Path dir;
    private static NginxServer nginx;

    @BeforeAll
    static void startNginx() throws Exception {
        Optional<Path> binary = NginxServer.binary();
        Assumptions.assumeTrue(binary.isPresent(),
                "nginx is not installed (apt-get install nginx-light): skipping the nginx HTTP/2 interop test");
        nginx = NginxServer.start(binary.get(), dir, CERTIFICATE, true);
        byte[] large = new byte[LARGE_BYTES];
        Arrays.fill(large, (byte) 'x');
        nginx.writeFile("large.bin", large);
    }

    @AfterAll
    static void stopNginx() {
        if (nginx != null) {
            nginx.close();
        }
    }

    @Test
    void concurrentRequestsShareOneHttp2Connection() throws Exception {
        int requests = 100; // below nginx's http2_max_concurrent_streams of 128
        List<String> connections = new ArrayList<>();
        try (HttpClient client = HttpClient.builder().sslContext(CERTIFICATE.clientContext())
                .callTimeout(Duration.ofSeconds(20)).build();
             ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            try (Response first = client.send(Request.get(nginx.url("/ok")))) {
                assertThat(first.version()).isEqualTo(HttpVersion.HTTP_2);
                assertThat(first.connection().tls().applicationProtocol()).isEqualTo("h2");
                assertThat(first.string()).isEqualTo("ok\n");
                connections.add(first.header("X-Connection"));
            }
            List<Future<String>> calls = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                calls.add(callers.submit(() -> {
                    try (Response response = client.send(Request.get(nginx.url("/ok")))) {
                        assertThat(response.status()).isEqualTo(200);
                        assertThat(response.string()).isEqualTo("ok\n");
                        return response.header("X-Connection");
                    }
                }));
            }
            for (Future<String> call : calls) {
                connections.add(call.get());
            }
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        }
        assertThat(connections).as("nginx's $connection of every response").containsOnly(connections.getFirst());
        Await.until("nginx to log " + (requests + 1) + " requests",
                () -> nginx.accessLog().stream().filter(line -> line.startsWith(connections.getFirst() + " "))
                        .count() == requests + 1);
    }

    @Test
    void largeBodiesClosedUnreadResetTheirStreamsAndKeepTheConnection() throws Exception {
        try (HttpClient client = HttpClient.builder().sslContext(CERTIFICATE.clientContext())
                .callTimeout(Duration.ofSeconds(20)).build()) {
            String connection = null;
            for (int i = 0; i < 20; i++) {
                try (Response response = client.send(Request.get(nginx.url("/large.bin")))) {
                    assertThat(response.status()).isEqualTo(200);
                    assertThat(response.version()).isEqualTo(HttpVersion.HTTP_2);
                    if (connection == null) {
                        connection = response.header("X-Connection");
                    }
                    assertThat(response.header("X-Connection")).isEqualTo(connection);
                } // closed unread: RST_STREAM(CANCEL), the window's credit returned
            }
            try (Response last = client.send(Request.get(nginx.url("/ok")))) {
                assertThat(last.string()).isEqualTo("ok\n");
                assertThat(last.header("X-Connection")).isEqualTo(connection);
            }
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
            // Most are reset mid-body; one that arrived whole before its close needs no reset (nginx is quick).
            assertThat(client.stats().drains(DrainOutcome.RESET_STREAM)).isPositive();
        }
    }
}
