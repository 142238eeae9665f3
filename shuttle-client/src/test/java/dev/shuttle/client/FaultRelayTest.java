package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.shuttle.client.testing.FaultRelay;
import dev.shuttle.client.testing.FaultRelay.Faults;
import dev.shuttle.server.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Shuttle's client against Shuttle's server through a {@link FaultRelay}: a slow link, late bytes, a reset and a
 * half-close in the middle of a response. The first relayed connection carries the fault; the ones after it are clean,
 * so each test also shows that the client carries on.
 */
class FaultRelayTest {
    private static final Duration BOUND = Duration.ofSeconds(10);

    private HttpServer server;

    @BeforeEach
    void start() throws IOException {
        // GET /bytes/N: N bytes of 'x'; POST: the body back, once read.
        server = HttpServer.builder().port(0).handler((request, response) -> {
            if (request.method().equals("POST")) {
                try (InputStream in = request.body()) {
                    response.send(in.readAllBytes());
                }
            } else if (request.path().startsWith("/bytes/")) {
                response.send(body(Integer.parseInt(request.path().substring("/bytes/".length()))));
            } else {
                response.send("hello");
            }
        }).build().start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static byte[] body(int n) {
        byte[] body = new byte[n];
        Arrays.fill(body, (byte) 'x');
        return body;
    }

    private FaultRelay relay(Faults firstConnection) throws IOException {
        return new FaultRelay(new InetSocketAddress("127.0.0.1", server.port()),
                index -> index == 0 ? firstConnection : Faults.NONE);
    }

    @Test
    void aSlowLinkDeliversTheWholeBodyAndKeepsTheConnection() throws Exception {
        // 256 KiB at 1 MiB/s: a quarter of a second, with no silence anywhere near the read timeout.
        try (FaultRelay relay = relay(Faults.bandwidth(1024 * 1024));
             HttpClient client = HttpClient.builder().readTimeout(Duration.ofSeconds(2)).build()) {
            long start = System.nanoTime();
            byte[] received = assertTimeoutPreemptively(BOUND, () -> client.send(
                    Request.get(relay.uri("/bytes/262144"))).bytes());
            assertThat(received).isEqualTo(body(262144));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(150));
            Request upload = Request.newBuilder(relay.uri("/echo")).POST(BodyPublisher.ofBytes(body(100_000)))
                    .build();
            try (Response echo = client.send(upload)) {
                assertThat(echo.bytes()).isEqualTo(body(100_000));
                assertThat(echo.connection().reused()).isTrue();
            }
            assertThat(relay.accepted()).isEqualTo(1);
        }
    }

    @Test
    void bytesLaterThanTheReadTimeoutFailTheCallAndTheNextConnectionWorks() throws Exception {
        try (FaultRelay relay = relay(Faults.latency(Duration.ofMillis(800)));
             HttpClient client = HttpClient.builder().readTimeout(Duration.ofMillis(200)).build()) {
            Throwable thrown = assertTimeoutPreemptively(BOUND, () -> catchThrowable(() ->
                    client.send(Request.get(relay.uri("/hello"))).close()));
            assertThat(thrown).isInstanceOfSatisfying(HttpTimeoutException.class,
                    e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.READ));
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
            try (Response later = client.send(Request.get(relay.uri("/hello")))) {
                assertThat(later.string()).isEqualTo("hello");
            }
            assertThat(relay.accepted()).isEqualTo(2);
        }
    }

    @Test
    void aResetInTheMiddleOfABodyFailsTheReadSayingSoAndIsNotRetried() throws Exception {
        try (FaultRelay relay = relay(Faults.resetAfter(50_000));
             HttpClient client = HttpClient.builder().readTimeout(Duration.ofSeconds(2)).build()) {
            Throwable thrown = assertTimeoutPreemptively(BOUND, () -> catchThrowable(() ->
                    client.send(Request.get(relay.uri("/bytes/1000000"))).bytes()));
            assertThat(thrown).isInstanceOf(SocketException.class)
                    .hasMessageContaining("while reading the response body");
            assertThat(client.stats().retries()).isZero();
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
            assertThat(client.send(Request.get(relay.uri("/bytes/1000000"))).bytes()).hasSize(1_000_000);
        }
    }

    @Test
    void aHalfCloseInTheMiddleOfABodyIsATruncationNeverAShortBody() throws Exception {
        try (FaultRelay relay = relay(Faults.halfCloseAfter(20_000));
             HttpClient client = HttpClient.builder().readTimeout(Duration.ofSeconds(2)).build()) {
            Throwable thrown = assertTimeoutPreemptively(BOUND, () -> catchThrowable(() ->
                    client.send(Request.get(relay.uri("/bytes/100000"))).bytes()));
            assertThat(thrown).isInstanceOf(IOException.class).hasMessageContaining("body truncated");
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
            assertThat(client.send(Request.get(relay.uri("/bytes/100000"))).bytes()).hasSize(100_000);
        }
    }

    @Test
    void aHalfCloseBeforeTheHeadIsAFailureBeforeAnyResponseByte() throws Exception {
        try (FaultRelay relay = relay(Faults.halfCloseAfter(0));
             HttpClient client = HttpClient.builder().readTimeout(Duration.ofSeconds(2)).build()) {
            assertTimeoutPreemptively(BOUND, () -> assertThatThrownBy(() ->
                    client.send(Request.get(relay.uri("/hello"))))
                    .isInstanceOf(IOException.class).hasMessageContaining("before any response byte"));
            try (Response later = client.send(Request.get(relay.uri("/hello")))) {
                assertThat(later.string()).isEqualTo("hello");
            }
        }
    }
}
