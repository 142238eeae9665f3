package dev.shuttle.mockserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.server.GoAwayEvent;
import dev.shuttle.wire.HttpVersion;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The GOAWAYs the mock server counts, as its server reports them: each one the server sent, marked as before the
 * client closed unless it answered the client's own GOAWAY. The raw client steers the server frame by frame; the
 * event may come just after the client read the frame, so the test waits for it ({@code awaitGoAwaysSent}).
 */
@Timeout(30)
class GoAwayCountingTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final GoAwayEvent SHUTDOWN_FIRST =
            new GoAwayEvent(Integer.MAX_VALUE, 0, "NO_ERROR", "shutdown", false);

    @Test
    void theIdleTimeoutsGoAwayCountsAsSentBeforeTheClientClosed() throws Exception {
        try (MockServer server = http2().idleTimeout(Duration.ofMillis(200)).start();
             RawH2 client = new RawH2(server.port())) {
            client.get(1);
            RawH2.Frame goAway = client.expect(RawH2.GOAWAY);
            assertThat(goAway.lastStreamId()).isEqualTo(1);
            assertThat(server.awaitGoAwaysSent(1, WAIT)).as(server.describe()).isTrue();
            assertThat(server.goAways()).containsExactly(new GoAwayEvent(1, 0, "NO_ERROR", "idle", false));
            assertThat(server.goAwaysBeforeClientClosed()).isEqualTo(1);
        }
    }

    @Test
    void aShutdownSendsTwoGoAwaysTheFirstTakingEveryStreamTheSecondNamingTheLast() throws Exception {
        try (MockServer server = http2().start(); RawH2 client = new RawH2(server.port())) {
            client.get(1);
            Thread closing = Thread.ofVirtual().start(server::close);
            assertThat(client.expect(RawH2.GOAWAY).lastStreamId()).isEqualTo(Integer.MAX_VALUE);
            RawH2.Frame ping = client.expect(RawH2.PING);
            // Counted before the client answers the PING that lets the second one go: the order is the server's.
            assertThat(server.awaitGoAwaysSent(1, WAIT)).as(server.describe()).isTrue();
            assertThat(server.goAways().getFirst()).isEqualTo(SHUTDOWN_FIRST);
            client.send(RawH2.PING, 0x1, 0, ping.payload());
            RawH2.Frame last = client.expect(RawH2.GOAWAY);
            assertThat(last.lastStreamId()).isEqualTo(1);
            assertThat(last.errorCode()).isZero();
            client.readToEnd();
            client.close();
            closing.join(WAIT);
            assertThat(server.awaitGoAwaysSent(2, WAIT)).as(server.describe()).isTrue();
            assertThat(server.goAways()).containsExactly(SHUTDOWN_FIRST,
                    new GoAwayEvent(1, 0, "NO_ERROR", "shutdown", false));
            assertThat(server.goAwaysBeforeClientClosed()).isEqualTo(2);
        }
    }

    @Test
    void theGoAwayOfAConnectionErrorCountsAsSentBeforeTheClientClosed() throws Exception {
        try (MockServer server = http2().start(); RawH2 client = new RawH2(server.port())) {
            client.send(RawH2.DATA, 0, 0, new byte[4]); // DATA on stream 0: a connection error (RFC 9113 6.1)
            assertThat(client.expect(RawH2.GOAWAY).errorCode()).isEqualTo(1);
            assertThat(server.awaitGoAwaysSent(1, WAIT)).as(server.describe()).isTrue();
            assertThat(server.goAways()).singleElement().satisfies(goAway -> {
                assertThat(goAway.errorName()).isEqualTo("PROTOCOL_ERROR");
                assertThat(goAway.lastStreamId()).isZero();
                assertThat(goAway.clientFirst()).isFalse();
            });
            assertThat(server.goAwaysBeforeClientClosed()).isEqualTo(1);
        }
    }

    @Test
    void theAnswerToTheClientsOwnGoAwayIsNotBeforeTheClientClosed() throws Exception {
        try (MockServer server = http2().start(); RawH2 client = new RawH2(server.port())) {
            client.get(1);
            client.send(RawH2.GOAWAY, 0, 0, ByteBuffer.allocate(8).putInt(0).putInt(0).array());
            assertThat(client.expect(RawH2.GOAWAY).lastStreamId()).isEqualTo(1);
            assertThat(server.awaitGoAwaysSent(1, WAIT)).as(server.describe()).isTrue();
            assertThat(server.goAways()).containsExactly(new GoAwayEvent(1, 0, "NO_ERROR", "client GOAWAY", true));
            assertThat(server.goAwaysBeforeClientClosed()).isZero();
        }
    }

    @Test
    void aClientThatClosesItsSocketGetsNoGoAway() throws Exception {
        try (MockServer server = http2().start()) {
            try (RawH2 client = new RawH2(server.port())) {
                client.get(1);
            }
            assertThat(server.awaitConnectionsClosed(WAIT)).isTrue();
            assertThat(server.goAwaysSent()).as(server.describe()).isZero();
            assertThat(server.goAways()).isEmpty();
        }
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void shuttlesClientClosingBodiesUnreadThenClosingSeesNoGoAwayBeforeItsClose(boolean tls) throws Exception {
        MockServer.Builder builder = http2();
        try (MockServer server = (tls ? builder.tls() : builder).start()) {
            HttpClient.Builder client = HttpClient.builder().http2(true).http2PriorKnowledge(true);
            if (tls) {
                client.sslContext(server.clientContext());
            }
            try (HttpClient http = client.build()) {
                for (int i = 0; i < 20; i++) {
                    try (Response response = http.send(Request.get(server.url("/")))) {
                        assertThat(response.version()).isEqualTo(HttpVersion.HTTP_2);
                    }
                }
            }
            assertThat(server.awaitConnectionsClosed(WAIT)).isTrue();
            assertThat(server.connections()).isEqualTo(1);
            assertThat(server.goAwaysBeforeClientClosed()).as(server.describe()).isZero();
            assertThat(server.goAways()).allSatisfy(goAway -> assertThat(goAway.clientFirst()).isTrue());
        }
    }

    @Test
    void http1SendsNoGoAwayAndTheWaitForOneEnds() throws Exception {
        try (MockServer server = MockServer.builder().respondWith(MockResponse.ofSize(100)).start()) {
            try (RawHttp client = new RawHttp(server.port())) {
                client.get("/");
            }
            assertThat(server.awaitGoAwaysSent(1, Duration.ofMillis(50))).isFalse();
            assertThat(server.goAways()).isEmpty();
        }
    }

    private static MockServer.Builder http2() {
        return MockServer.builder().http2().respondWith(MockResponse.ofSize(2048));
    }
}
