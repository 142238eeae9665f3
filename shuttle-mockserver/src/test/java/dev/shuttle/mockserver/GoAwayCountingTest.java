package dev.shuttle.mockserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.server.GoAwayEvent;
import dev.shuttle.wire.HttpVersion;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.GoAwayFrame;
import dev.shuttle.wire.http2.HeadersFrame;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.PingFrame;
import dev.shuttle.wire.http2.SettingsFrame;
import dev.shuttle.wire.http2.WindowUpdateFrame;
import dev.shuttle.wire.testing.H2Peer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The GOAWAYs the mock server counts, as its server reports them: each one the server sent, marked as before the
 * client closed unless it answered the client's own GOAWAY. The test peer steers the server frame by frame; the
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
             H2Peer client = dial(server)) {
            get(client, 1);
            GoAwayFrame goAway = expect(client, GoAwayFrame.class);
            assertThat(goAway.lastStreamId()).isEqualTo(1);
            assertThat(server.awaitGoAwaysSent(1, WAIT)).as(server.describe()).isTrue();
            assertThat(server.goAways()).containsExactly(new GoAwayEvent(1, 0, "NO_ERROR", "idle", false));
            assertThat(server.goAwaysBeforeClientClosed()).isEqualTo(1);
        }
    }

    @Test
    void aShutdownSendsTwoGoAwaysTheFirstTakingEveryStreamTheSecondNamingTheLast() throws Exception {
        try (MockServer server = http2().start(); H2Peer client = dial(server)) {
            get(client, 1);
            Thread closing = Thread.ofVirtual().start(server::close);
            assertThat(expect(client, GoAwayFrame.class).lastStreamId()).isEqualTo(Integer.MAX_VALUE);
            PingFrame ping = expect(client, PingFrame.class);
            // Counted before the client answers the PING that lets the second one go: the order is the server's.
            assertThat(server.awaitGoAwaysSent(1, WAIT)).as(server.describe()).isTrue();
            assertThat(server.goAways().getFirst()).isEqualTo(SHUTDOWN_FIRST);
            client.send(new PingFrame(ping.opaqueData(), true));
            GoAwayFrame last = expect(client, GoAwayFrame.class);
            assertThat(last.lastStreamId()).isEqualTo(1);
            assertThat(last.errorCode()).isZero();
            client.awaitEnd();
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
        try (MockServer server = http2().start(); H2Peer client = dial(server)) {
            client.sendRaw(new byte[] {0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}); // DATA on stream 0: a connection error (RFC 9113 6.1)
            assertThat(expect(client, GoAwayFrame.class).errorCode()).isEqualTo(1);
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
        try (MockServer server = http2().start(); H2Peer client = dial(server)) {
            get(client, 1);
            client.send(new GoAwayFrame(0, Http2ErrorCode.NO_ERROR, ""));
            assertThat(expect(client, GoAwayFrame.class).lastStreamId()).isEqualTo(1);
            assertThat(server.awaitGoAwaysSent(1, WAIT)).as(server.describe()).isTrue();
            assertThat(server.goAways()).containsExactly(new GoAwayEvent(1, 0, "NO_ERROR", "client GOAWAY", true));
            assertThat(server.goAwaysBeforeClientClosed()).isZero();
        }
    }

    @Test
    void aClientThatClosesItsSocketGetsNoGoAway() throws Exception {
        try (MockServer server = http2().start()) {
            try (H2Peer client = dial(server)) {
                get(client, 1);
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

    /** An h2c connection to {@code server}: the preface and an empty SETTINGS sent. */
    private static H2Peer dial(MockServer server) throws IOException {
        return H2Peer.dial(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()));
    }

    /** {@code GET /} on {@code streamId}, then the frames up to the end of its response. */
    private static void get(H2Peer client, int streamId) throws IOException {
        client.send(client.request(streamId, "/", true));
        while (true) {
            Http2Frame frame = next(client);
            boolean end = frame instanceof DataFrame data && data.endStream()
                    || frame instanceof HeadersFrame headers && headers.endStream();
            if (end && frame.streamId() == streamId) {
                return;
            }
        }
    }

    /** The next frame other than SETTINGS (answered with an ACK) and WINDOW_UPDATE. */
    private static Http2Frame next(H2Peer client) throws IOException {
        while (true) {
            Http2Frame frame = client.read();
            if (frame == null) {
                throw new AssertionError("the server closed before the frame the test waits for");
            }
            if (frame instanceof SettingsFrame settings) {
                if (!settings.ack()) {
                    client.send(SettingsFrame.ACK);
                }
            } else if (!(frame instanceof WindowUpdateFrame)) {
                return frame;
            }
        }
    }

    /** Reads the next frame, which must be a {@code type}. */
    private static <F extends Http2Frame> F expect(H2Peer client, Class<F> type) throws IOException {
        Http2Frame frame = next(client);
        if (!type.isInstance(frame)) {
            throw new AssertionError("expected " + type.getSimpleName() + ", got " + frame);
        }
        return type.cast(frame);
    }
}
