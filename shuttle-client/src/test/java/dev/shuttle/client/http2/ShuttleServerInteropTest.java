package dev.shuttle.client.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.BodyPublisher;
import dev.shuttle.client.ClientInternals;
import dev.shuttle.client.DrainOutcome;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.client.testing.RecordingTrace;
import dev.shuttle.server.HttpServer;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import dev.shuttle.wire.HttpVersion;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Shuttle's HTTP/2 client against Shuttle's HTTP/2 server (its default {@code Http2Options}: h2c with prior knowledge
 * on plaintext, ALPN {@code h2} over TLS, 128 streams): both sides share the wire codec, so this checks that each
 * side's use of it (flow control, resets, stream limits, ALPN) agrees with the other's, next to the interop tests
 * against Jetty, Netty and nginx that check the codec itself.
 */
class ShuttleServerInteropTest {
    private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.generate();

    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** GET /bytes/N: N bytes; POST: the body sent back once read; anything else: "h2 " + path, with the protocol it came on. */
    private void start(boolean tls) throws java.io.IOException {
        HttpServer.Builder builder = HttpServer.builder().port(0).handler((request, response) -> {
            response.header("X-Protocol", request.version().text());
            if (request.method().equals("POST")) {
                // Read whole, then sent: an echo that streams back while reading would wait on the client, which
                // reads the response only once it sent the whole request (a full-duplex echo deadlocks any
                // client that does, over HTTP/1.1 as well, once the bodies exceed the windows in between).
                try (InputStream in = request.body()) {
                    response.send(in.readAllBytes());
                }
            } else if (request.path().startsWith("/bytes/")) {
                byte[] body = new byte[Integer.parseInt(request.path().substring("/bytes/".length()))];
                Arrays.fill(body, (byte) 'x');
                response.send(body);
            } else {
                response.send("hello " + request.path());
            }
        });
        if (tls) {
            builder.tls(CERTIFICATE.serverContext());
        }
        server = builder.build().start();
    }

    private String url(boolean tls, String path) {
        return (tls ? "https" : "http") + "://127.0.0.1:" + server.port() + path;
    }

    @Test
    void h2cWithPriorKnowledgeCarriesConcurrentStreamsOnOneConnection() throws Exception {
        start(false);
        try (HttpClient client = HttpClient.builder().http2PriorKnowledge(true)
                .callTimeout(Duration.ofSeconds(10)).build();
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Set<Integer> streamIds = ConcurrentHashMap.newKeySet();
            List<Future<String>> calls = new ArrayList<>();
            for (int i = 0; i < 100; i++) { // under the server's 128 streams: one connection
                String path = "/call/" + i;
                calls.add(threads.submit(() -> {
                    try (Response response = client.send(Request.get(url(false, path)))) {
                        assertThat(response.version()).isEqualTo(HttpVersion.HTTP_2);
                        assertThat(response.header("X-Protocol")).isEqualTo("HTTP/2");
                        streamIds.add(response.streamId());
                        return response.string();
                    }
                }));
            }
            for (int i = 0; i < calls.size(); i++) {
                assertThat(calls.get(i).get(20, TimeUnit.SECONDS)).isEqualTo("hello /call/" + i);
            }
            assertThat(streamIds).hasSize(100).allSatisfy(id -> assertThat(id % 2).isEqualTo(1));
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
            ClientInternals.awaitSettled(client);
        }
    }

    @Test
    void bodiesOfSeveralMebibytesBothWaysOverH2c() throws Exception {
        start(false);
        byte[] upload = new byte[3 << 20]; // three times the server's 1 MiB connection window
        new Random(9).nextBytes(upload);
        try (HttpClient client = HttpClient.builder().http2PriorKnowledge(true)
                .callTimeout(Duration.ofSeconds(20)).build();
             Response response = client.send(Request.newBuilder(url(false, "/echo"))
                     .POST(BodyPublisher.ofBytes(upload)).build())) {
            assertThat(response.version()).isEqualTo(HttpVersion.HTTP_2);
            assertThat(response.bytes()).isEqualTo(upload);
        }
    }

    @Test
    void discardReadsBodiesLargerThanTheWindowsToTheirEndAndKeepsTheConnection() throws Exception {
        start(false);
        try (HttpClient client = HttpClient.builder().http2PriorKnowledge(true)
                .callTimeout(Duration.ofSeconds(20)).build()) {
            for (int i = 0; i < 3; i++) {
                // 3 MiB: three stream windows, so discard() must hand the credit back as it drops the bytes
                Response response = client.send(Request.get(url(false, "/bytes/" + (3 << 20))));
                response.discard();
                assertThat(response.streamId()).isEqualTo(2 * i + 1);
            }
            try (Response response = client.send(Request.get(url(false, "/after")))) {
                assertThat(response.string()).isEqualTo("hello /after");
            }
            assertThat(client.stats().drains(DrainOutcome.COMPLETE)).isEqualTo(4);
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
            ClientInternals.awaitSettled(client);
        }
    }

    @Test
    void closingUnreadBodiesResetsStreamsAndKeepsTheConnection() throws Exception {
        start(false);
        try (HttpClient client = HttpClient.builder().http2PriorKnowledge(true)
                .callTimeout(Duration.ofSeconds(10)).build()) {
            // 24 bodies of 2 MiB closed unread: more than the client's connection window, so the connection stalls
            // unless every reset gave back the credit of what it had buffered.
            for (int i = 0; i < 24; i++) {
                try (Response response = client.send(Request.get(url(false, "/bytes/" + (2 << 20))))) {
                    assertThat(response.status()).isEqualTo(200);
                }
            }
            try (Response response = client.send(Request.get(url(false, "/after")))) {
                assertThat(response.string()).isEqualTo("hello /after");
                assertThat(response.connection().reused()).isTrue();
            }
            assertThat(client.stats().drains(DrainOutcome.RESET_STREAM)).isEqualTo(24);
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
            ClientInternals.awaitSettled(client);
        }
    }

    /**
     * Hundreds of 1 MiB bodies closed unread in a row on one connection: each close resets the stream or drops a
     * body that arrived whole, and between calls the connection parks while the server's DATA may still arrive. It
     * used to lose the connection now and then (a writer started on the parked channel, or during a woken reader's
     * non-blocking read: IllegalBlockingModeException) and retry, and a request queued behind the failure hung until
     * its call timeout.
     */
    private void largeBodiesClosedUnreadInARow(boolean tls, int calls, Duration bound) throws Exception {
        start(tls);
        RecordingTrace trace = new RecordingTrace();
        HttpClient.Builder builder = HttpClient.builder().trace(trace).callTimeout(Duration.ofSeconds(10));
        if (tls) {
            builder.sslContext(CERTIFICATE.clientContext());
        } else {
            builder.http2PriorKnowledge(true);
        }
        try (HttpClient client = builder.build()) {
            long start = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                try (Response response = client.send(Request.get(url(tls, "/bytes/" + (1 << 20))))) {
                    assertThat(response.status()).isEqualTo(200);
                    assertThat(response.version()).isEqualTo(HttpVersion.HTTP_2);
                }
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(bound);
            assertThat(trace.retryCauses).isEmpty();
            assertThat(client.stats().drains(DrainOutcome.RESET_STREAM)
                    + client.stats().drains(DrainOutcome.REUSED_INLINE)).isEqualTo(calls);
            try (Response response = client.send(Request.get(url(tls, "/after")))) {
                assertThat(response.string()).isEqualTo("hello /after");
            }
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
            ClientInternals.awaitSettled(client);
        }
    }

    @Test
    void hundredsOfLargeBodiesClosedUnreadKeepOneH2cConnection() throws Exception {
        largeBodiesClosedUnreadInARow(false, 300, Duration.ofSeconds(20));
    }

    @Test
    void largeBodiesClosedUnreadKeepOneTlsConnection() throws Exception {
        largeBodiesClosedUnreadInARow(true, 100, Duration.ofSeconds(30)); // TLS costs more CPU: room for a loaded machine
    }

    @Test
    void tlsNegotiatesH2ThroughAlpnAndHttp1WhenTheClientDoesNotOfferIt() throws Exception {
        start(true);
        try (HttpClient client = HttpClient.builder().sslContext(CERTIFICATE.clientContext()).build()) {
            for (int i = 0; i < 3; i++) {
                try (Response response = client.send(Request.get(url(true, "/tls")))) {
                    assertThat(response.version()).isEqualTo(HttpVersion.HTTP_2);
                    assertThat(response.connection().tls().applicationProtocol()).isEqualTo("h2");
                    assertThat(response.header("X-Protocol")).isEqualTo("HTTP/2");
                    assertThat(response.streamId()).isEqualTo(2 * i + 1);
                    assertThat(response.string()).isEqualTo("hello /tls");
                }
            }
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
            ClientInternals.awaitSettled(client);
        }
        try (HttpClient client = HttpClient.builder().sslContext(CERTIFICATE.clientContext()).http2(false).build();
             Response response = client.send(Request.get(url(true, "/tls")))) {
            assertThat(response.version()).isEqualTo(HttpVersion.HTTP_1_1);
            assertThat(response.header("X-Protocol")).isEqualTo("HTTP/1.1");
            assertThat(response.streamId()).isZero();
            assertThat(response.string()).isEqualTo("hello /tls");
        }
    }

    @Test
    void withoutPriorKnowledgeAPlaintextRequestStaysHttp1OnTheSameServer() throws Exception {
        start(false);
        try (HttpClient client = HttpClient.create();
             Response response = client.send(Request.get(url(false, "/plain")))) {
            assertThat(response.version()).isEqualTo(HttpVersion.HTTP_1_1);
            assertThat(response.streamId()).isZero();
            assertThat(response.string()).isEqualTo("hello /plain");
        }
    }
}
