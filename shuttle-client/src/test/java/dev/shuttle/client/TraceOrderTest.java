package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.FixtureServer;
import dev.shuttle.client.testing.RecordingTrace;
import org.junit.jupiter.api.Test;

/** Trace events fire in the documented order, client-wide and per request. */
class TraceOrderTest {
    @Test
    void eventsNestAsDocumented() throws Exception {
        RecordingTrace clientWide = new RecordingTrace();
        try (FixtureServer server = new FixtureServer();
             HttpClient client = HttpClient.builder().trace(clientWide).build()) {
            RecordingTrace first = new RecordingTrace();
            try (Response response = client.send(Request.newBuilder(server.uri("/cl/100")).trace(first).build())) {
                response.discard();
            }
            assertThat(first.events).containsExactly("getConn", "connectStart", "connectDone", "gotConn",
                    "wroteHeaders", "wroteRequest", "gotFirstResponseByte", "bodyClosed");
            assertThat(first.connections.get(0).reused()).isFalse();

            RecordingTrace second = new RecordingTrace();
            try (Response response = client.send(Request.newBuilder(server.uri("/cl/100")).trace(second).build())) {
                assertThat(response.status()).isEqualTo(200);
            }
            Await.until("outcome reported", () -> second.closed.size() == 1);
            assertThat(second.events).containsExactly("getConn", "gotConn", "wroteHeaders", "wroteRequest",
                    "gotFirstResponseByte", "bodyClosed");
            assertThat(second.connections.get(0).reused()).isTrue();
            assertThat(second.connections.get(0).wasIdle()).isTrue();
            assertThat(second.closed.get(0).outcome().reused()).isTrue();
            assertThat(clientWide.events).hasSize(first.events.size() + second.events.size());
        }
    }

    @Test
    void aThrowingTraceDoesNotBreakTheRequest() throws Exception {
        ClientTrace broken = new ClientTrace() {
            @Override
            public void gotConn(ConnectionInfo connection) {
                throw new IllegalStateException("trace bug");
            }
        };
        try (FixtureServer server = new FixtureServer();
             HttpClient client = HttpClient.builder().trace(broken).build();
             Response response = client.send(Request.get(server.uri("/cl/4")))) {
            assertThat(response.string()).isEqualTo("xxxx");
        }
    }

    @Test
    void statsCountRequestsReuseAndDrains() throws Exception {
        try (FixtureServer server = new FixtureServer(); HttpClient client = HttpClient.create()) {
            for (int i = 0; i < 4; i++) {
                client.send(Request.get(server.uri("/cl/1000"))).close();
            }
            ClientInternals.awaitSettled(client);
            ClientStats stats = client.stats();
            Origin origin = Origin.of(server.uri("/"));
            assertThat(stats.requests()).isEqualTo(4);
            assertThat(stats.reusedRequests()).isEqualTo(3);
            assertThat(stats.reuseRatio()).isEqualTo(0.75);
            assertThat(stats.origin(origin).connectionsOpened()).isEqualTo(1);
            assertThat(stats.origin(origin).idle()).isEqualTo(1);
            Await.until("drains counted", () -> client.stats().drains(DrainOutcome.REUSED_INLINE)
                    + client.stats().drains(DrainOutcome.REUSED_ASYNC) == 4);
            assertThat(client.stats().bytesDiscarded()).isEqualTo(4000);
        }
    }
}
