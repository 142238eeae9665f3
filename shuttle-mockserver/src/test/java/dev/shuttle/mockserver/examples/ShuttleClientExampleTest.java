package dev.shuttle.mockserver.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.mockserver.MockResponse;
import dev.shuttle.mockserver.MockServer;
import dev.shuttle.mockserver.ReuseAssertions;
import dev.shuttle.mockserver.ReuseStats;
import dev.shuttle.mockserver.junit.ShuttleMockServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The README's example for Shuttle's client: close unread, reuse anyway; and where reuse must stop. */
@Timeout(60)
class ShuttleClientExampleTest {
    @Test
    void closingUnreadOverTlsReusesOneConnection(@ShuttleMockServer(tls = true) MockServer server) throws Exception {
        for (int i = 0; i < 101; i++) {
            server.enqueue(MockResponse.chunkedOfSize(2048));
        }
        try (HttpClient client = HttpClient.builder().sslContext(server.clientContext()).build()) {
            try (Response warmUp = client.send(Request.get(server.url("/")))) {
                assertThat(warmUp.status()).isEqualTo(200);
            }
            ReuseStats before = server.stats();
            for (int i = 0; i < 100; i++) {
                try (Response response = client.send(Request.get(server.url("/")))) {
                    assertThat(response.status()).isEqualTo(200); // closed unread: the client drains 2 KiB inline
                }
            }
            ReuseAssertions.assertReuse(server).since(before)
                    .requests(100)
                    .newConnections(0)          // not one dial after the warm-up
                    .tlsHandshakesAtMost(0)
                    .reuseRatioAtLeast(1.0);
        }
        assertThat(server.awaitConnectionsClosed(Duration.ofSeconds(10))).isTrue();
        ReuseAssertions.assertReuse(server).tlsHandshakesAtMost(1);
    }

    @Test
    void connectionCloseCostsADialPerCall(@ShuttleMockServer MockServer server) throws Exception {
        for (int i = 0; i < 10; i++) {
            server.enqueue(MockResponse.builder().bodyOfSize(1024).connectionClose().build());
        }
        try (HttpClient client = HttpClient.create()) {
            for (int i = 0; i < 10; i++) {
                try (Response response = client.send(Request.get(server.url("/")))) {
                    assertThat(response.status()).isEqualTo(200);
                }
            }
        }
        ReuseAssertions.assertReuse(server).newConnections(10);
        assertThat(server.stats().reuseRatio()).isZero();
    }
}
