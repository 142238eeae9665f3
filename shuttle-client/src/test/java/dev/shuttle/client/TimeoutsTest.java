package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.testing.FixtureServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Each timeout fails the call with its kind, and leaves no connection in the pool. */
class TimeoutsTest {
    @Test
    void responseHeaderTimeout() throws Exception {
        try (FixtureServer server = new FixtureServer();
             HttpClient client = HttpClient.builder().responseHeaderTimeout(Duration.ofMillis(100)).build()) {
            assertThatThrownBy(() -> client.send(Request.get(server.uri("/slow-head/1000"))))
                    .isInstanceOfSatisfying(HttpTimeoutException.class,
                            e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.RESPONSE_HEADERS));
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
            assertThat(client.stats().retries()).isZero();
            try (Response fine = client.send(Request.get(server.uri("/cl/10")))) {
                assertThat(fine.string()).isEqualTo("xxxxxxxxxx");
            }
        }
    }

    @Test
    void readTimeoutWhileTheBodyStalls() throws Exception {
        // The head must beat the read timeout too: 1 s is far above loopback even on a loaded machine, and the stall
        // (30 s) far above the timeout.
        try (FixtureServer server = new FixtureServer();
             HttpClient client = HttpClient.builder().readTimeout(Duration.ofSeconds(1)).build()) {
            try (Response response = client.send(Request.get(server.uri("/pause/30000/2048")))) {
                assertThatThrownBy(() -> response.body().readAllBytes())
                        .isInstanceOfSatisfying(HttpTimeoutException.class,
                                e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.READ));
            }
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
        }
    }

    @Test
    void callTimeoutCoversReadingTheBody() throws Exception {
        try (FixtureServer server = new FixtureServer();
             HttpClient client = HttpClient.builder().callTimeout(Duration.ofMillis(200)).build()) {
            try (Response response = client.send(Request.get(server.uri("/pause/1000/2048")))) {
                assertThatThrownBy(() -> response.body().readAllBytes())
                        .isInstanceOfSatisfying(HttpTimeoutException.class,
                                e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.CALL));
            }
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
        }
    }

    @Test
    void perRequestTimeoutOverridesTheClientsAndCoversTheHead() throws Exception {
        try (FixtureServer server = new FixtureServer(); HttpClient client = HttpClient.create()) {
            Request slow = Request.newBuilder(server.uri("/slow-head/1000")).timeout(Duration.ofMillis(150)).build();
            assertThatThrownBy(() -> client.send(slow))
                    .isInstanceOfSatisfying(HttpTimeoutException.class,
                            e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.CALL));
            ClientInternals.awaitSettled(client);
        }
    }

    @Test
    void callTimeoutThatDoesNotExpireLeavesTheConnectionAlone() throws Exception {
        try (FixtureServer server = new FixtureServer();
             HttpClient client = HttpClient.builder().callTimeout(Duration.ofMillis(300)).build()) {
            for (int i = 0; i < 5; i++) {
                try (Response response = client.send(Request.get(server.uri("/cl/100")))) {
                    response.discard();
                }
            }
            Thread.sleep(400); // the subject: timers of finished calls must not fire on the pooled connection
            try (Response response = client.send(Request.get(server.uri("/cl/10")))) {
                assertThat(response.string()).isEqualTo("xxxxxxxxxx");
                assertThat(response.connection().reused()).isTrue();
            }
            assertThat(server.newConnections()).isEqualTo(1);
        }
    }
}
