package dev.shuttle.client.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.ClientInternals;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.client.exchange.ResponseBody;
import dev.shuttle.client.testing.FixtureServer;
import dev.shuttle.client.testing.StagedHook;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code close()} racing a read on another thread, staged at the one point where it matters: the read has reached
 * the end and released the connection, and the close's wait for that read runs out before the read lets go of the
 * body's lock. The close's abort must then leave the connection alone: it is idle in the pool, or another call's.
 */
class Http1BodyCloseRaceTest {
    @Test
    void aCloseWhoseWaitRanOutAfterTheReadReleasedTheConnectionLeavesItToTheNextCall() throws Exception {
        try (FixtureServer server = new FixtureServer(); HttpClient client = HttpClient.create()) {
            Response response = client.send(Request.get(server.uri("/cl/10")));
            InputStream stream = response.body();
            Http1Body body = (Http1Body) ((ResponseBody) stream).source();
            CountDownLatch atEnd = new CountDownLatch(1);
            CountDownLatch closeGaveUp = new CountDownLatch(1);
            body.afterEnd = StagedHook.pauseUntil(atEnd, closeGaveUp);
            body.afterCloseWaitExpired = closeGaveUp::countDown;
            Thread reader = Thread.ofVirtual().start(() -> {
                byte[] buffer = new byte[64];
                try {
                    while (stream.read(buffer) >= 0) {
                        // to the end, where the hook holds this thread with the body's lock
                    }
                } catch (IOException expected) {
                    // the close came first for the read after the last one
                }
            });
            assertThat(atEnd.await(10, TimeUnit.SECONDS)).as("the read reached the end").isTrue();
            response.close(); // the read holds the lock: a closing thread waits for it, gives up, aborts
            assertThat(closeGaveUp.await(10, TimeUnit.SECONDS)).as("the close's wait ran out").isTrue();
            reader.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(reader.isAlive()).isFalse();
            ClientInternals.awaitSettled(client);

            try (Response next = client.send(Request.get(server.uri("/cl/10")))) {
                assertThat(next.string()).isEqualTo("xxxxxxxxxx");
            }
            assertThat(client.stats().retries()).as("the next call found its connection open").isZero();
            assertThat(client.stats().connectionsOpened()).as("and it was the same one").isEqualTo(1);
        }
    }
}
