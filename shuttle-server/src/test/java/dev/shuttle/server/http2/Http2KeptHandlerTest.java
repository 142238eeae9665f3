package dev.shuttle.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.HttpServer;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import dev.shuttle.wire.testing.H2Peer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The last handler a read starts on a plaintext connection runs on the reader's own thread once the connection has
 * parked ({@link HandlerRun}): no thread start for a request alone in its read, and no handler that waits on its own
 * connection's reader.
 */
class Http2KeptHandlerTest {
    private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.generate();

    /** Threads that delivered a PARKED event, in order: the reader delivers the event of its own park. */
    private final List<Thread> parkers = new CopyOnWriteArrayList<>();
    private final CountDownLatch parked = new CountDownLatch(1);

    private HttpServer.Builder recordingParks() {
        return HttpServer.builder().connectionListener((connection, from, to) -> {
            if (to == ConnectionState.PARKED) {
                parkers.add(Thread.currentThread());
                parked.countDown();
            }
        });
    }

    @Test
    void aRequestAloneInItsReadRunsOnTheThreadThatParkedTheConnection() throws Exception {
        AtomicReference<Thread> handlerThread = new AtomicReference<>();
        AtomicBoolean parkedBefore = new AtomicBoolean();
        try (HttpServer server = recordingParks().handler((request, response) -> {
                    handlerThread.set(Thread.currentThread());
                    parkedBefore.set(parkers.contains(Thread.currentThread()));
                    response.send("kept");
                }).start();
             H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/", true));
            H2Peer.StreamOutcome outcome = client.awaitStream(1);

            assertThat(outcome.status()).isEqualTo(200);
            assertThat(new String(outcome.body(), StandardCharsets.UTF_8)).isEqualTo("kept");
            assertThat(parkedBefore).as("the handler's thread had parked the connection before it ran").isTrue();
            assertThat(handlerThread.get().getName()).startsWith("shuttle-h2-");
        }
    }

    @Test
    void overTlsEveryHandlerHasAThreadOfItsOwn() throws Exception {
        // A write to a parked TLS connection takes it back from the watcher, so the reader keeps nothing back there.
        AtomicBoolean parkedBefore = new AtomicBoolean(true);
        try (HttpServer server = recordingParks().tls(CERTIFICATE.serverContext()).handler((request, response) -> {
                    parkedBefore.set(parkers.contains(Thread.currentThread()));
                    response.send("own thread");
                }).start();
             H2Peer client = H2Peer.dialTls(server.localAddress(), CERTIFICATE.clientContext())) {
            client.send(client.request(1, "/", true));

            assertThat(client.awaitStream(1).status()).isEqualTo(200);
            assertThat(parkedBefore).isFalse();
        }
    }

    @Test
    void aHandlerKeptBackWhileAnotherOfTheSameReadWaitsForItStillRuns() throws Exception {
        CountDownLatch secondRan = new CountDownLatch(1);
        try (HttpServer server = recordingParks().handler((request, response) -> {
                    if (request.path().equals("/first")) {
                        if (!secondRan.await(10, TimeUnit.SECONDS)) {
                            throw new AssertionError("the second handler never ran");
                        }
                        response.send("/first");
                    } else {
                        response.send("/second"); // before the first's: awaitStream drops other streams' frames
                        secondRan.countDown();
                    }
                }).start();
             H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/first", true), client.request(3, "/second", true)); // one write

            assertThat(new String(client.awaitStream(3).body(), StandardCharsets.UTF_8)).isEqualTo("/second");
            assertThat(new String(client.awaitStream(1).body(), StandardCharsets.UTF_8)).isEqualTo("/first");
        }
    }

    @Test
    void aKeptHandlerReadsABodyThatArrivesAfterTheConnectionParked() throws Exception {
        try (HttpServer server = recordingParks().handler((request, response) ->
                        response.send("got " + new String(request.body().readAllBytes(), StandardCharsets.UTF_8)))
                .start();
             H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/upload", false));
            assertThat(parked.await(10, TimeUnit.SECONDS)).as("parked with the body still to come").isTrue();
            client.sendData(1, "the body".getBytes(StandardCharsets.UTF_8), true);

            H2Peer.StreamOutcome outcome = client.awaitStream(1);
            assertThat(outcome.status()).isEqualTo(200);
            assertThat(new String(outcome.body(), StandardCharsets.UTF_8)).isEqualTo("got the body");
        }
    }
}
