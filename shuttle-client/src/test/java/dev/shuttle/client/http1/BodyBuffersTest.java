package dev.shuttle.client.http1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.ClientInternals;
import dev.shuttle.client.DrainOutcome;
import dev.shuttle.client.DrainPolicy;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.client.exchange.ResponseBody;
import dev.shuttle.client.pool.Lease;
import dev.shuttle.client.testing.FixtureServer;
import dev.shuttle.client.testing.ScriptedServer;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Pooled buffers follow the connection's owner: never attached to a connection a body no longer owns, always returned. */
class BodyBuffersTest {
    // available() looks at the body's state under its lock: a body that stopped owning its connection between the
    // call and the lock must not read the connection's source, which would attach a pooled buffer to it. A body that
    // reached its end cannot show this (its decoder answers 0 first); a failed or closed one can.

    @Test
    void availableRacingAResetMidBodyAttachesNoBufferToTheClosedConnection() throws Exception {
        CountDownLatch reset = new CountDownLatch(1);
        try (ScriptedServer server = new ScriptedServer(resetMidBody(reset));
             HttpClient client = HttpClient.create();
             Response response = client.send(Request.get(server.uri("/")))) {
            Http1Body body = (Http1Body) ((ResponseBody) response.body()).source();
            Http1Connection connection = (Http1Connection) lease(body).connection();
            body.beforeAvailableLock = () -> {
                reset.countDown();
                assertThatThrownBy(() -> readToEnd(body)).isInstanceOf(IOException.class); // FAILED, released
            };
            assertThat(response.body().available()).isZero();
            assertThat(connection.source().holdsBuffer()).as("a closed connection holds no buffer").isFalse();
        }
    }

    @Test
    void availableRacingACloseWhoseBackgroundDrainFailsAttachesNoBufferToTheClosedConnection() throws Exception {
        CountDownLatch reset = new CountDownLatch(1);
        DrainPolicy drainsInTheBackground = new DrainPolicy(256 * 1024, Duration.ofSeconds(10), false, false);
        try (ScriptedServer server = new ScriptedServer(resetMidBody(reset));
             HttpClient client = HttpClient.builder().drainPolicy(drainsInTheBackground).build();
             Response response = client.send(Request.get(server.uri("/")))) {
            Http1Body body = (Http1Body) ((ResponseBody) response.body()).source();
            Http1Connection connection = (Http1Connection) lease(body).connection();
            body.beforeAvailableLock = () -> {
                response.close(); // CLOSED: a drain thread owns the connection now
                reset.countDown(); // which fails the drain: the connection is closed and released
                try {
                    ClientInternals.awaitSettled(client);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            };
            assertThat(response.body().available()).isZero();
            assertThat(client.stats().drains(DrainOutcome.ABANDONED_ERROR)).as("drained in the background").isOne();
            assertThat(connection.source().holdsBuffer()).as("a closed connection holds no buffer").isFalse();
        }
    }

    @Test
    void connectionsThatCloseGiveTheirBuffersBack() throws Exception {
        // Issue 13, item 7: a Connection: close workload allocated a read buffer per request.
        try (FixtureServer server = new FixtureServer(); HttpClient client = HttpClient.create()) {
            for (int i = 0; i < 50; i++) {
                try (Response response = client.send(Request.get(server.uri("/close/100")))) {
                    response.discard();
                }
            }
            ClientInternals.awaitSettled(client);
            assertThat(client.stats().connectionsOpened()).isEqualTo(50);
            assertThat(ClientInternals.buffers(client).allocations()).isLessThanOrEqualTo(2);
        }
    }

    private static Lease lease(Http1Body body) {
        return body.lease();
    }

    /** Answers with a head and 10 of 100 body bytes, then resets the connection once {@code reset} opens. */
    private static ScriptedServer.Script resetMidBody(CountDownLatch reset) {
        return (conn, index) -> {
            conn.readRequest();
            conn.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nxxxxxxxxxx");
            if (!reset.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("the test never asked for the reset");
            }
            conn.socket().setSoLinger(true, 0); // the close that follows sends a TCP reset
        };
    }

    private static void readToEnd(Http1Body body) throws IOException {
        byte[] buffer = new byte[64];
        while (body.read(buffer, 0, buffer.length) >= 0) {
            // until the end, or the failure
        }
    }
}
