package dev.shuttle.client.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.ClientInternals;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.client.exchange.ResponseBody;
import dev.shuttle.client.pool.Lease;
import dev.shuttle.client.testing.FixtureServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

/** Pooled buffers follow the connection's owner: never attached to a connection a body no longer owns, always returned. */
class BodyBuffersTest {
    @Test
    void availableRacingTheEndOfTheBodyAttachesNoBufferToTheReleasedConnection() throws Exception {
        // Issue 13, item 3: available() checked the state before taking the lock; a read that ended the body between
        // the two left available() reading the source of a connection already back in the pool.
        try (FixtureServer server = new FixtureServer(); HttpClient client = HttpClient.create()) {
            Response response = client.send(Request.get(server.uri("/cl/10")));
            Http1Body body = (Http1Body) ((ResponseBody) response.body()).source();
            Http1Connection connection = (Http1Connection) lease(body).connection();
            body.beforeAvailableLock = () -> {
                try {
                    byte[] buffer = new byte[64];
                    while (body.read(buffer, 0, buffer.length) >= 0) {
                        // to the end: the lease goes back, the connection idles and gives its buffer back
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            };
            assertThat(response.body().available()).isZero();
            assertThat(ClientInternals.pool(client).idleCount()).isEqualTo(1);
            assertThat(connection.source().holdsBuffer()).as("an idle connection holds no buffer").isFalse();
            response.close();
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
}
