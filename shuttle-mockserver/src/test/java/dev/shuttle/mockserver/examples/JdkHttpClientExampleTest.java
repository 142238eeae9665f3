package dev.shuttle.mockserver.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.mockserver.MockResponse;
import dev.shuttle.mockserver.MockServer;
import dev.shuttle.mockserver.ReuseAssertions;
import dev.shuttle.mockserver.junit.ShuttleMockServer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The README's example for the JDK's HttpClient: correctness and reuse as two separate gates (seed 004). */
@Timeout(60)
class JdkHttpClientExampleTest {
    @Test
    void hundredCallsOverTlsShareOneConnectionAndOneHandshake(@ShuttleMockServer(tls = true) MockServer server)
            throws Exception {
        server.enqueue(MockResponse.builder().json("{\"a\":1}\n").build()); // the first call gets this, the rest:
        MockResponse ok = MockResponse.ofSize(2048);
        for (int i = 1; i < 100; i++) {
            server.enqueue(ok);
        }
        try (HttpClient client = HttpClient.newBuilder()
                .sslContext(server.clientContext())
                .version(HttpClient.Version.HTTP_1_1)
                .build()) {
            HttpResponse<String> first = client.send(HttpRequest.newBuilder(server.url("/first")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(first.body()).isEqualTo("{\"a\":1}\n"); // correctness gate
            for (int i = 1; i < 100; i++) {
                HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(server.url("/" + i)).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                assertThat(response.statusCode()).isEqualTo(200);
            }
        }
        ReuseAssertions.assertReuse(server)          // reuse gate
                .requests(100)
                .newConnectionsAtMost(1)
                .tlsHandshakesAtMost(1);
        assertThat(server.awaitConnectionsClosed(Duration.ofSeconds(10))).isTrue();
    }
}
