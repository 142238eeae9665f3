package dev.shuttle.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.ServerTimeouts;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import dev.shuttle.wire.testing.H2Peer;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An HTTP/2 connection parks while its streams' handlers still run, and their writes wake it: no write is stranded
 * behind a park, whichever comes first.
 */
class Http2ParkingTest {
    private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.generate();

    @Test
    void aHandlerWritingToAParkedConnectionWakesItAndItParksAgain() throws Exception {
        CountDownLatch parked = new CountDownLatch(1);
        AtomicInteger parks = new AtomicInteger();
        CountDownLatch parkedAgain = new CountDownLatch(2);
        try (HttpServer server = HttpServer.builder().tls(CERTIFICATE.serverContext())
                .connectionListener((connection, from, to) -> {
                    if (to == ConnectionState.PARKED) {
                        parks.incrementAndGet();
                        parked.countDown();
                        parkedAgain.countDown();
                    }
                })
                .handler((request, response) -> {
                    // Nothing more comes from the client: the connection parks while this handler waits.
                    if (!parked.await(10, TimeUnit.SECONDS)) {
                        throw new AssertionError("the connection never parked");
                    }
                    response.send("written to a parked connection");
                }).start();
             HttpClient client = HttpClient.newBuilder().sslContext(CERTIFICATE.clientContext()).build()) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                    URI.create("https://localhost:" + server.port() + "/")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(response.body()).isEqualTo("written to a parked connection");
            assertThat(parkedAgain.await(10, TimeUnit.SECONDS)).as("parked again after the write").isTrue();
        }
    }

    @Test
    void aHandlerWritingToAParkedH2cConnectionWritesWithoutWakingIt() throws Exception {
        // Plaintext: the frames go out through the parked, non-blocking channel; the connection stays PARKED and the
        // watcher is not involved (no PARKED -> IDLE -> PARKED round trip per response).
        CountDownLatch parked = new CountDownLatch(1);
        List<String> transitions = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (HttpServer server = HttpServer.builder()
                .connectionListener((connection, from, to) -> {
                    transitions.add(from + "->" + to);
                    if (to == ConnectionState.PARKED) {
                        parked.countDown();
                    }
                })
                .handler((request, response) -> {
                    if (!parked.await(10, TimeUnit.SECONDS)) {
                        throw new AssertionError("the connection never parked");
                    }
                    response.send("written while parked");
                }).start();
             H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/", true));
            H2Peer.StreamOutcome outcome = client.awaitStream(1);
            assertThat(outcome.status()).isEqualTo(200);
            assertThat(new String(outcome.body(), StandardCharsets.UTF_8)).isEqualTo("written while parked");
            assertThat(transitions).doesNotContain("PARKED->IDLE");
            assertThat(server.stats().parked()).isEqualTo(1);
        }
    }

    @Test
    void aConnectionWhoseLastStreamEndedWhileParkedClosesAtTheIdleTimeout() throws Exception {
        // The reader parks while the handler runs; the handler's write re-parks the connection after it. That park
        // must still end at the idle timeout, though no stream remains and no byte will come.
        CountDownLatch parked = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        try (HttpServer server = HttpServer.builder().tls(CERTIFICATE.serverContext())
                .timeouts(ServerTimeouts.defaults().toBuilder().idle(Duration.ofMillis(300)).build())
                .connectionListener((connection, from, to) -> {
                    if (to == ConnectionState.PARKED) {
                        parked.countDown();
                    } else if (to == ConnectionState.CLOSED) {
                        closed.countDown();
                    }
                })
                .handler((request, response) -> {
                    if (!parked.await(10, TimeUnit.SECONDS)) {
                        throw new AssertionError("the connection never parked");
                    }
                    response.send("done");
                }).start();
             HttpClient client = HttpClient.newBuilder().sslContext(CERTIFICATE.clientContext()).build()) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                    URI.create("https://localhost:" + server.port() + "/")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(closed.await(10, TimeUnit.SECONDS)).as("closed by the 300 ms idle timeout").isTrue();
        }
    }

    @Test
    void aStreamRunningLongerThanTheIdleTimeoutIsNotCutOff() throws Exception {
        AtomicInteger closedEarly = new AtomicInteger();
        AtomicInteger handlerDone = new AtomicInteger();
        try (HttpServer server = HttpServer.builder().tls(CERTIFICATE.serverContext())
                .timeouts(ServerTimeouts.defaults().toBuilder().idle(Duration.ofMillis(100)).build())
                .connectionListener((connection, from, to) -> {
                    if (to == ConnectionState.CLOSED && handlerDone.get() == 0) {
                        closedEarly.incrementAndGet();
                    }
                })
                .handler((request, response) -> {
                    Thread.sleep(500); // five idle timeouts with a stream open: the connection parks and wakes meanwhile
                    handlerDone.incrementAndGet();
                    response.send("slow but whole");
                }).start();
             HttpClient client = HttpClient.newBuilder().sslContext(CERTIFICATE.clientContext()).build()) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                    URI.create("https://localhost:" + server.port() + "/")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.body()).isEqualTo("slow but whole");
            assertThat(closedEarly).hasValue(0);
        }
    }

    /** Over TLS handlers take the parked channel back to write; over h2c (reached by Upgrade) they write through it. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"https", "http"})
    void manyStreamsWithHandlersWritingAfterRandomDelaysAllComplete(String scheme) throws Exception {
        int clients = 4;
        int requestsPerClient = 250;
        try (HttpServer server = (scheme.equals("https") ? HttpServer.builder().tls(CERTIFICATE.serverContext())
                : HttpServer.builder())
                // the JDK client fails, rather than queues, streams beyond the server's limit
                .http2(dev.shuttle.server.Http2Options.builder().maxConcurrentStreams(requestsPerClient).build())
                .handler((request, response) -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    int pieces = 1 + random.nextInt(4);
                    OutputStream out = response.body();
                    for (int i = 0; i < pieces; i++) {
                        Thread.sleep(random.nextInt(15)); // the connection parks meanwhile, often
                        out.write((request.path() + "#" + i + ";").getBytes(StandardCharsets.US_ASCII));
                        if (random.nextBoolean()) {
                            out.flush();
                        }
                    }
                    response.trailers(dev.shuttle.wire.Headers.of("x-pieces", Integer.toString(pieces)));
                }).start()) {
            List<CompletableFuture<Void>> checks = new ArrayList<>();
            List<HttpClient> opened = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                HttpClient client = HttpClient.newBuilder().sslContext(CERTIFICATE.clientContext()).build();
                opened.add(client);
                // One request first: the JDK client opens a connection per request until its first HTTP/2
                // connection to an origin is up.
                client.send(HttpRequest.newBuilder(URI.create(scheme + "://localhost:" + server.port() + "/warm"))
                        .build(), HttpResponse.BodyHandlers.discarding());
                for (int r = 0; r < requestsPerClient; r++) {
                    String path = "/c" + c + "/r" + r;
                    checks.add(client.sendAsync(HttpRequest.newBuilder(
                                    URI.create(scheme + "://localhost:" + server.port() + path)).build(),
                            HttpResponse.BodyHandlers.ofString()).thenAccept(response -> {
                        assertThat(response.statusCode()).isEqualTo(200);
                        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
                        String body = response.body();
                        assertThat(body).startsWith(path + "#0;").endsWith(";");
                        assertThat(body.split(";")).allSatisfy(piece -> assertThat(piece).startsWith(path + "#"));
                    }));
                }
            }
            CompletableFuture.allOf(checks.toArray(CompletableFuture[]::new)).get(90, TimeUnit.SECONDS);
            opened.forEach(HttpClient::close);
            assertThat(server.stats().requests()).isEqualTo((long) clients * (requestsPerClient + 1));
            assertThat(server.stats().accepted()).isEqualTo(clients);
        }
    }
}
