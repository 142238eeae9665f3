package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.FixtureServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Responses and clients that are dropped without being closed are reported through System.Logger (routed to
 * java.util.logging here) and release their connections; a client made per call and closed leaves nothing open at
 * the server (seed 003's "SMS helper").
 */
class LeakDetectionTest {
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final Logger root = Logger.getLogger("dev.shuttle.client");
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings.add(record.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        root.addHandler(handler);
    }

    @AfterEach
    void stopListening() {
        root.removeHandler(handler);
    }

    @Test
    void unclosedResponseIsLoggedWithMethodAndUrlAndItsConnectionReleased() throws Exception {
        try (FixtureServer server = new FixtureServer(); HttpClient client = HttpClient.create()) {
            leakOneResponse(client, server);
            awaitWithGc("leak warning", () -> warnings.stream().anyMatch(w -> w.contains("GET " + server.uri("/cl/100"))));
            Await.until("connection closed at the server", () -> server.openConnections() == 0);
            ClientInternals.awaitSettled(client);
        }
    }

    private static void leakOneResponse(HttpClient client, FixtureServer server) throws Exception {
        Response response = client.send(Request.get(server.uri("/cl/100")));
        assertThat(response.status()).isEqualTo(200);
        // dropped here without close()
    }

    @Test
    void unclosedClientIsLoggedAndItsIdleConnectionsClosed() throws Exception {
        try (FixtureServer server = new FixtureServer()) {
            leakOneClient(server);
            awaitWithGc("client leak warning", () -> warnings.stream().anyMatch(w -> w.contains("never closed")));
            Await.until("idle connection closed at the server", () -> server.openConnections() == 0);
        }
    }

    private static void leakOneClient(FixtureServer server) throws Exception {
        HttpClient client = HttpClient.create();
        try (Response response = client.send(Request.get(server.uri("/cl/10")))) {
            response.discard();
        }
        assertThat(ClientInternals.pool(client).idleCount()).isEqualTo(1);
        // dropped here without close()
    }

    @Test
    void clientPerCallClosedLeavesNoConnectionOpenAtTheServer() throws Exception {
        try (FixtureServer server = new FixtureServer()) {
            for (int i = 0; i < 30; i++) {
                try (HttpClient client = HttpClient.create()) {
                    // Unread and closed: a drain may still be running when the client closes.
                    client.send(Request.get(server.uri(i % 2 == 0 ? "/cl/65536" : "/chunked/2048"))).close();
                }
            }
            Await.until("every connection closed at the server", () -> server.openConnections() == 0);
            assertThat(server.newConnections()).isEqualTo(30);
            assertThat(warnings).isEmpty();
        }
    }

    private static void awaitWithGc(String what, java.util.function.BooleanSupplier condition) throws Exception {
        Await.until(what, () -> {
            System.gc();
            return condition.getAsBoolean();
        }, Duration.ofSeconds(20));
    }
}
