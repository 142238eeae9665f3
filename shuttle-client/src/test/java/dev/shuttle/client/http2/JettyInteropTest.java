package dev.shuttle.client.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.BodyPublisher;
import dev.shuttle.client.ClientInternals;
import dev.shuttle.client.DrainOutcome;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Origin;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.JettyH2Server;
import dev.shuttle.client.testing.RecordingTrace;
import dev.shuttle.client.testing.ThreadDump;
import dev.shuttle.transport.TlsTransport;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import dev.shuttle.wire.HttpVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Shuttle's HTTP/2 client against Jetty 12: h2c, h2 over TLS, fallback, flow control, limits, coalescing, parking. */
class JettyInteropTest {
    private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.generate();

    private static HttpClient.Builder tlsClient() {
        return HttpClient.builder().sslContext(CERTIFICATE.clientContext());
    }

    @Test
    void h2cWithPriorKnowledgeCarriesGetAndPostWithTheTraceOfHttp1() throws Exception {
        RecordingTrace trace = new RecordingTrace();
        try (JettyH2Server server = new JettyH2Server(JettyH2Server.Mode.H2C, CERTIFICATE, 100, 30_000);
             HttpClient client = HttpClient.builder().http2PriorKnowledge(true).trace(trace).build()) {
            try (Response response = client.send(Request.get(server.url("/hello")))) {
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.version()).isEqualTo(HttpVersion.HTTP_2);
                assertThat(response.connection().protocol()).isEqualTo(HttpVersion.HTTP_2);
                assertThat(response.connection().tls()).isNull();
                assertThat(response.string()).isEqualTo("hello /hello over HTTP/2.0");
            }
            try (Response echo = client.send(Request.newBuilder(server.url("/echo"))
                    .POST(BodyPublisher.ofString("ping")).build())) {
                assertThat(echo.string()).isEqualTo("ping");
                assertThat(echo.connection().reused()).isTrue();
            }
            assertThat(trace.events).containsSubsequence("getConn", "connectStart", "connectDone", "gotConn",
                    "wroteHeaders", "wroteRequest", "gotFirstResponseByte", "bodyClosed",
                    "getConn", "gotConn", "wroteHeaders", "wroteRequest", "gotFirstResponseByte", "bodyClosed");
            assertThat(trace.count(DrainOutcome.COMPLETE)).isEqualTo(2);
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
            assertThat(client.stats().reusedRequests()).isEqualTo(1);
            ClientInternals.awaitSettled(client);
        }
    }

    @Test
    void alpnPicksH2OverTls() throws Exception {
        try (JettyH2Server server = new JettyH2Server(JettyH2Server.Mode.H2_TLS, CERTIFICATE, 100, 30_000);
             HttpClient client = tlsClient().build();
             Response response = client.send(Request.get(server.url("/tls")))) {
            assertThat(response.version()).isEqualTo(HttpVersion.HTTP_2);
            assertThat(response.connection().tls().applicationProtocol()).isEqualTo("h2");
            assertThat(response.string()).isEqualTo("hello /tls over HTTP/2.0");
        }
    }

    @Test
    void fallsBackToHttp1WhenTheTlsServerDoesNotOfferH2() throws Exception {
        try (JettyH2Server server = new JettyH2Server(JettyH2Server.Mode.HTTP1_TLS, CERTIFICATE, 100, 30_000);
             HttpClient client = tlsClient().build();
             Response response = client.send(Request.get(server.url("/old")))) {
            assertThat(response.version()).isEqualTo(HttpVersion.HTTP_1_1);
            assertThat(response.connection().protocol()).isEqualTo(HttpVersion.HTTP_1_1);
            assertThat(response.string()).isEqualTo("hello /old over HTTP/1.1");
        }
    }

    @Test
    void http2CanBeTurnedOffForTls() throws Exception {
        try (JettyH2Server server = new JettyH2Server(JettyH2Server.Mode.H2_TLS, CERTIFICATE, 100, 30_000);
             HttpClient client = tlsClient().http2(false).build();
             Response response = client.send(Request.get(server.url("/off")))) {
            assertThat(response.version()).isEqualTo(HttpVersion.HTTP_1_1);
        }
    }

    @Test
    void bodiesOfSeveralMebibytesFlowBothWaysUnderFlowControl() throws Exception {
        byte[] upload = new byte[6 << 20];
        new Random(7).nextBytes(upload);
        try (JettyH2Server server = new JettyH2Server(JettyH2Server.Mode.H2_TLS, CERTIFICATE, 100, 30_000);
             HttpClient client = tlsClient().callTimeout(Duration.ofSeconds(30)).build()) {
            // One request first: until the origin is known to speak h2, concurrent requests each dial (as Go's do).
            try (Response warmUp = client.send(Request.get(server.url("/warm")))) {
                warmUp.string();
            }
            List<Future<byte[]>> downloads = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                downloads.add(client.sendAsync(Request.get(server.url("/bytes/" + (8 << 20))))
                        .thenApply(JettyInteropTest::bytes));
            }
            try (Response echo = client.send(Request.newBuilder(server.url("/echo"))
                    .POST(BodyPublisher.ofBytes(upload)).build())) {
                assertThat(Arrays.equals(echo.bytes(), upload)).as("6 MiB echoed intact").isTrue();
            }
            for (Future<byte[]> download : downloads) {
                byte[] body = download.get(30, TimeUnit.SECONDS);
                assertThat(body).hasSize(8 << 20);
                for (int i = 0; i < body.length; i += 4099) {
                    assertThat(body[i]).isEqualTo((byte) i);
                }
            }
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
            ClientInternals.awaitSettled(client);
        }
    }

    @Test
    void closingUnreadBodiesResetsTheirStreamsAndReturnsTheirCredit() throws Exception {
        // 24 bodies of 2 MiB, each closed once the server has filled its 1 MiB stream window: 24 MiB in all, more
        // than the 16 MiB connection window, so the connection stalls unless every reset gave its credit back.
        RecordingTrace trace = new RecordingTrace();
        try (JettyH2Server server = new JettyH2Server(JettyH2Server.Mode.H2C, CERTIFICATE, 100, 30_000);
             HttpClient client = HttpClient.builder().http2PriorKnowledge(true).trace(trace)
                     .callTimeout(Duration.ofSeconds(10)).build()) {
            for (int i = 0; i < 24; i++) {
                Response response = client.send(Request.get(server.url("/bytes/" + (2 << 20))));
                Await.until("the stream window filled", () -> available(response) == Http2ConnectionConfig.DEFAULT_STREAM_WINDOW);
                response.close();
            }
            try (Response last = client.send(Request.get(server.url("/bytes/100")))) {
                assertThat(last.bytes()).hasSize(100);
            }
            assertThat(client.stats().drains(DrainOutcome.RESET_STREAM)).isEqualTo(24);
            assertThat(client.stats().bytesDiscarded()).isEqualTo(24L * Http2ConnectionConfig.DEFAULT_STREAM_WINDOW);
            assertThat(trace.retryCauses).isEmpty();
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
            ClientInternals.awaitSettled(client);
        }
    }

    @Test
    void aThousandConcurrentStreamsOpenMoreConnectionsAtTheServersStreamLimit() throws Exception {
        int calls = 1000;
        // 150: more than one connection's 100 streams, and fewer than the 200 threads of Jetty's default pool, which
        // could never hold 300 handlers at once (the wait then ended only at its 10 s bound, as long as the client's
        // own 10 s read timeout).
        CountDownLatch manyInFlight = new CountDownLatch(150);
        try (JettyH2Server server = new JettyH2Server(JettyH2Server.Mode.H2C, CERTIFICATE, 100, 30_000);
             HttpClient client = HttpClient.builder().http2PriorKnowledge(true)
                     .callTimeout(Duration.ofSeconds(30)).build()) {
            // Hold the first 150 streams in the handler until all 150 are there: more than one connection allows.
            server.beforeAnswer(() -> {
                manyInFlight.countDown();
                try {
                    manyInFlight.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            AtomicInteger ok = new AtomicInteger();
            List<IOException> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                String url = server.url("/n" + i);
                threads.add(Thread.ofVirtual().start(() -> {
                    try (Response response = client.send(Request.get(url))) {
                        if (response.status() == 200 && response.string().startsWith("hello /n")) {
                            ok.incrementAndGet();
                        }
                    } catch (IOException e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread thread : threads) {
                thread.join(Duration.ofSeconds(30));
            }
            assertThat(failures).as("failed calls; " + client.stats()).isEmpty();
            assertThat(ok.get()).isEqualTo(calls);
            assertThat(manyInFlight.getCount()).as("150 streams were open at once").isZero();
            assertThat(server.maxInFlightPerConnection()).isLessThanOrEqualTo(100);
            assertThat(client.stats().retries()).as("nothing refused: the limit was respected").isZero();
            // 1000 / 100 streams: ten connections, give or take one dial started before a SETTINGS arrived.
            assertThat(client.stats().connectionsOpened()).isBetween(3L, 12L);
            ClientInternals.awaitSettled(client);
        }
    }

    @Test
    void aBurstToAnOriginKnownToSpeakH2WaitsForOneDial() throws Exception {
        try (JettyH2Server server = new JettyH2Server(JettyH2Server.Mode.H2_TLS, CERTIFICATE, 100, 400);
             HttpClient client = tlsClient().build()) {
            try (Response warmUp = client.send(Request.get(server.url("/warm")))) {
                assertThat(warmUp.version()).isEqualTo(HttpVersion.HTTP_2);
                warmUp.string();
            }
            Origin origin = Origin.of(URI.create(server.url("/")));
            // Jetty's idle timeout closes the connection (GOAWAY while it is parked): the pool drops it.
            Await.until("the idle connection closed by Jetty left the pool",
                    () -> ClientInternals.pool(client).connectionCount(origin) == 0);
            assertThat(burst(client, server, 50)).isEqualTo(50);
            assertThat(client.stats().connectionsOpened()).as("the warm-up's and one for the burst").isEqualTo(2);
            ClientInternals.awaitSettled(client);
        }
    }

    @Test
    void aFirstBurstWithPriorKnowledgeOpensOneConnection() throws Exception {
        try (JettyH2Server server = new JettyH2Server(JettyH2Server.Mode.H2C, CERTIFICATE, 100, 30_000);
             HttpClient client = HttpClient.builder().http2PriorKnowledge(true).build()) {
            assertThat(burst(client, server, 50)).isEqualTo(50);
            assertThat(client.stats().connectionsOpened()).as(() -> String.valueOf(client.stats())).isEqualTo(1);
        }
    }

    @Test
    void anIdleTlsConnectionParksWithoutThreadOrBufferAndWorksAgain() throws Exception {
        try (JettyH2Server server = new JettyH2Server(JettyH2Server.Mode.H2_TLS, CERTIFICATE, 100, 30_000);
             HttpClient client = tlsClient().build()) {
            long firstId;
            try (Response response = client.send(Request.get(server.url("/a")))) {
                response.string();
                firstId = response.connection().id();
            }
            Origin origin = Origin.of(URI.create(server.url("/")));
            Http2Connection connection = (Http2Connection) ClientInternals.pool(client)
                    .multiplexedConnections(origin).get(0);
            Await.until("parked", () -> connection.ioState() == Http2Parking.Io.PARKED);
            assertThat(connection.hasThreads()).isFalse();
            assertThat(((TlsTransport) connection.transport).holdsBuffers()).isFalse();
            Await.until("no reader thread", () -> ThreadDump.named("shuttle-h2-reader-").isEmpty());
            assertThat(connection.chunks.free()).isZero();
            try (Response again = client.send(Request.get(server.url("/b")))) {
                assertThat(again.string()).isEqualTo("hello /b over HTTP/2.0");
                assertThat(again.connection().id()).isEqualTo(firstId);
                assertThat(again.connection().wasIdle()).isTrue();
            }
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        }
    }

    /** {@code n} requests released at once; returns how many succeeded. */
    private static int burst(HttpClient client, JettyH2Server server, int n) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger ok = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    go.await();
                    try (Response response = client.send(Request.get(server.url("/burst")))) {
                        if (response.status() == 200) {
                            response.string();
                            ok.incrementAndGet();
                        }
                    }
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        go.countDown();
        for (Thread thread : threads) {
            thread.join(Duration.ofSeconds(20));
        }
        return ok.get();
    }

    private static byte[] bytes(Response response) {
        try {
            return response.bytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int available(Response response) {
        try {
            return response.body().available();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
