package dev.shuttle.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.Handler;
import dev.shuttle.server.Http2Options;
import dev.shuttle.server.HttpServer;
import dev.shuttle.wire.http2.GoAwayFrame;
import dev.shuttle.wire.http2.PingFrame;
import dev.shuttle.wire.http2.RstStreamFrame;
import dev.shuttle.wire.http2.WindowUpdateFrame;
import dev.shuttle.wire.testing.H2Peer;
import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What ordinary clients do many times a second on one connection must never spend an abuse budget: each test does it
 * well past the budgets' bursts (200) and checks that every request is answered and no GOAWAY comes. The frames are
 * the ones real clients send: Go's transport returns the credit of a body closed unread in a small connection
 * WINDOW_UPDATE, browsers and gRPC grow each stream's window as they open it and PING beside traffic, and a client
 * whose calls time out resets streams whose handlers are still running.
 */
@Timeout(60)
class Http2OrdinaryClientsTest {
    private static final int MANY = 1000;

    /** A permit per {@code /slow} handler that began. */
    private final Semaphore started = new Semaphore(0);
    private final ConcurrentHashMap<Integer, CountDownLatch> releases = new ConcurrentHashMap<>();
    private HttpServer server;

    @AfterEach
    void stop() {
        releases.values().forEach(CountDownLatch::countDown);
        if (server != null) {
            server.close();
        }
    }

    private void start(Http2Options options) throws IOException {
        server = HttpServer.builder().http2(options).handler(handler()).start();
    }

    /** {@code /ok}: a two-byte answer; {@code /slow/N}: waits until the test releases N, then answers. */
    private Handler handler() {
        return (request, response) -> {
            if (request.path().startsWith("/slow/")) {
                started.release();
                release(Integer.parseInt(request.path().substring(6))).await(20, TimeUnit.SECONDS);
            }
            response.send("ok");
        };
    }

    private CountDownLatch release(int call) {
        return releases.computeIfAbsent(call, k -> new CountDownLatch(1));
    }

    private static void assertNoGoAway(H2Peer client) throws IOException {
        assertThat(client.drain(200)).noneMatch(frame -> frame instanceof GoAwayFrame);
    }

    @Test
    void returningTheCreditOfEachSmallBodyClosedUnreadIsFree() throws Exception {
        // Go's transport, closing a body unread, gives its credit back at once: WINDOW_UPDATE(0, 2) per request.
        start(Http2Options.defaults());
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            for (int i = 0; i < MANY; i++) {
                int id = 1 + 2 * i;
                client.send(client.request(id, "/ok", true));
                assertThat(client.awaitStream(id).status()).as("request %d", i).isEqualTo(200);
                client.send(new WindowUpdateFrame(0, 2));
            }
            assertNoGoAway(client);
        }
    }

    @Test
    void resettingStreamsWhoseAnswerArrivedAndReturningTheirCreditIsFree() throws Exception {
        // The same with RST_STREAM(CANCEL) on the finished stream too, as clients that cancel on close do.
        start(Http2Options.defaults());
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            for (int i = 0; i < MANY; i++) {
                int id = 1 + 2 * i;
                client.send(client.request(id, "/ok", true));
                assertThat(client.awaitStream(id).status()).as("request %d", i).isEqualTo(200);
                client.send(new RstStreamFrame(id, 0x8), new WindowUpdateFrame(0, 2));
            }
            assertNoGoAway(client);
        }
    }

    @Test
    void growingEachStreamsWindowAsItOpensIsFree() throws Exception {
        start(Http2Options.defaults());
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            for (int i = 0; i < MANY; i++) {
                int id = 1 + 2 * i;
                client.send(client.request(id, "/ok", true), new WindowUpdateFrame(id, 1 << 20));
                assertThat(client.awaitStream(id).status()).as("request %d", i).isEqualTo(200);
            }
            assertNoGoAway(client);
        }
    }

    @Test
    void aPingAfterEachAnswerIsFree() throws Exception {
        start(Http2Options.defaults());
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            for (int i = 0; i < MANY; i++) {
                int id = 1 + 2 * i;
                client.send(client.request(id, "/ok", true));
                assertThat(client.awaitStream(id).status()).as("request %d", i).isEqualTo(200);
                client.send(new PingFrame(i, false));
            }
            assertNoGoAway(client);
        }
    }

    @Test
    void cancellingCallsThatTimedOutWhileTheirHandlersStillRunKeepsTheConnection() throws Exception {
        // One stream allowed. Each call times out while its handler runs and is reset; the client then opens the
        // next at once, while the server still counts the last one's handler. That stream waits for the handler,
        // rather than being refused, and neither the cancellations nor any refusal spend a budget.
        start(Http2Options.builder().maxConcurrentStreams(1).build());
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            for (int call = 0; call < 250; call++) {
                int id = 1 + 4 * call;
                client.send(client.request(id, "/slow/" + call, true));
                assertThat(started.tryAcquire(10, TimeUnit.SECONDS)).as("handler %d runs", call).isTrue();
                client.send(new RstStreamFrame(id, 0x8)); // the caller gave up on it
                client.send(client.request(id + 2, "/ok", true));
                release(call).countDown(); // the handler finishes after the next call arrived
                assertThat(client.awaitStream(id + 2).status()).as("call after %d", call).isEqualTo(200);
            }
            assertNoGoAway(client);
        }
    }
}
