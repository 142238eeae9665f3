package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.FixtureServer;
import dev.shuttle.client.testing.RecordingTrace;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The idle timeout closes pooled connections on the shared scheduler; closing the client closes everything. */
class IdleTimeoutTest {
    @Test
    void idleConnectionsAreClosedAfterTheIdleTimeout() throws Exception {
        // The pool reads this clock; the cleanup runs on real time (150 ms) and evicts only once the pool's clock
        // says the connection has been idle that long, so nothing depends on how fast this machine is.
        AtomicLong clock = new AtomicLong(System.nanoTime());
        try (FixtureServer server = new FixtureServer();
             HttpClient client = HttpClient.builder().nanoClock(clock::get)
                     .pool(PoolConfig.builder().idleTimeout(Duration.ofMillis(150)).build()).build()) {
            try (Response response = client.send(Request.get(server.uri("/cl/10")))) {
                response.discard();
            }
            assertThat(ClientInternals.pool(client).idleCount()).isEqualTo(1);
            clock.addAndGet(Duration.ofMillis(149).toNanos());
            assertThat(ClientInternals.pool(client).maintain(clock.get())).isEqualTo(Duration.ofMillis(1).toNanos());
            assertThat(ClientInternals.pool(client).idleCount()).isEqualTo(1);
            clock.addAndGet(Duration.ofMillis(1).toNanos());
            Await.until("evicted by the scheduled cleanup", () -> ClientInternals.pool(client).idleCount() == 0);
            Await.until("closed at the server", () -> server.openConnections() == 0);
            // The server can see the FIN before the evicting thread has counted the close.
            Await.until("counted as closed", () -> client.stats().connectionsClosed() == 1);
            try (Response response = client.send(Request.get(server.uri("/cl/10")))) {
                assertThat(response.connection().reused()).isFalse();
            }
        }
    }

    @Test
    void closingTheClientClosesIdleAndDrainingConnectionsAtOnce() throws Exception {
        RecordingTrace trace = new RecordingTrace();
        try (FixtureServer server = new FixtureServer()) {
            HttpClient client = HttpClient.builder().trace(trace).build();
            try (Response idle = client.send(Request.get(server.uri("/cl/10")))) {
                idle.discard();
            }
            // The second half of this body is 1 s away: the close leaves a background drain running.
            client.send(Request.get(server.uri("/pause/1000/4096"))).close();
            client.close();
            Await.until("both connections closed at the server", () -> server.openConnections() == 0);
            Await.until("drain reported", () -> trace.closed.size() == 2);
            assertThat(trace.closed.get(1).outcome()).isEqualTo(DrainOutcome.ABANDONED_ERROR);
            ClientInternals.awaitSettled(client);
        }
    }
}
