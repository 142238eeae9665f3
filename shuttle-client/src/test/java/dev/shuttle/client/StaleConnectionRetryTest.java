package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.testing.RecordingTrace;
import dev.shuttle.client.testing.ScriptedServer;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A server that closes a kept-alive connection: noticed while idle (health check on checkout), or only once the
 * next request was sent on it, in which case an idempotent request is retried once on a new connection and a
 * non-idempotent one is not.
 */
class StaleConnectionRetryTest {
    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

    /** Connection 0 answers one request, then takes the next one and closes without a byte; later ones answer. */
    private static ScriptedServer closingAfterFirstResponse() throws IOException {
        return new ScriptedServer((conn, index) -> {
            if (index == 0) {
                conn.readRequest();
                conn.write(OK);
                conn.readRequest(); // the request sent on the reused connection
                return; // closes: the "server closed idle connection" race, lost
            }
            while (conn.readRequest() != null) {
                conn.write(OK);
            }
        });
    }

    @Test
    void idempotentRequestFailingOnAReusedConnectionIsRetriedOnceOnANewOne() throws Exception {
        RecordingTrace trace = new RecordingTrace();
        try (ScriptedServer server = closingAfterFirstResponse();
             HttpClient client = HttpClient.builder().trace(trace).build()) {
            try (Response first = client.send(Request.get(server.uri("/a")))) {
                assertThat(first.string()).isEqualTo("ok");
            }
            try (Response second = client.send(Request.get(server.uri("/b")))) {
                assertThat(second.string()).isEqualTo("ok");
                assertThat(second.connection().reused()).isFalse();
            }
            assertThat(trace.retries.get()).isEqualTo(1);
            assertThat(client.stats().retries()).isEqualTo(1);
            assertThat(server.accepted()).isEqualTo(2);
            assertThat(trace.events).containsSubsequence("gotConn", "wroteRequest", "retrying", "getConn",
                    "connectStart", "connectDone", "gotConn", "gotFirstResponseByte");
            ClientInternals.awaitSettled(client);
        }
    }

    @Test
    void requestWithIdempotencyKeyIsRetriedToo() throws Exception {
        try (ScriptedServer server = closingAfterFirstResponse(); HttpClient client = HttpClient.create()) {
            client.send(Request.get(server.uri("/a"))).close();
            Request post = Request.newBuilder(server.uri("/pay")).POST(BodyPublisher.ofString("x"))
                    .header("Idempotency-Key", "k-1").build();
            try (Response response = client.send(post)) {
                assertThat(response.status()).isEqualTo(200);
            }
            assertThat(client.stats().retries()).isEqualTo(1);
        }
    }

    @Test
    void nonIdempotentRequestWhoseBodyWasSentIsNeverRetried() throws Exception {
        try (ScriptedServer server = closingAfterFirstResponse(); HttpClient client = HttpClient.create()) {
            client.send(Request.get(server.uri("/a"))).close();
            Request post = Request.newBuilder(server.uri("/order")).POST(BodyPublisher.ofString("buy")).build();
            assertThatThrownBy(() -> client.send(post)).isInstanceOf(IOException.class)
                    .hasMessageContaining("before any response byte");
            assertThat(client.stats().retries()).isZero();
            assertThat(server.accepted()).isEqualTo(1);
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
        }
    }

    @Test
    void idleConnectionClosedByTheServerIsNoticedOnCheckoutWithoutARetry() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            conn.readRequest();
            conn.write(OK);
            if (index == 0) {
                conn.socket().close();
                closed.countDown();
            }
        }); HttpClient client = HttpClient.create()) {
            try (Response first = client.send(Request.get(server.uri("/a")))) {
                assertThat(first.string()).isEqualTo("ok");
            }
            assertThat(closed.await(5, TimeUnit.SECONDS)).isTrue();
            // The FIN may take a moment to arrive; until it does the request may still go out on the old connection
            // and be retried. Either way the caller sees a good response; the usual path is the health check.
            try (Response second = client.send(Request.get(server.uri("/b")))) {
                assertThat(second.string()).isEqualTo("ok");
                assertThat(second.connection().reused()).isFalse();
            }
            assertThat(server.accepted()).isEqualTo(2);
            assertThat(client.stats().connectionsClosed()).isGreaterThanOrEqualTo(1);
        }
    }
}
