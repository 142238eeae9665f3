package dev.shuttle.interop.crossrole;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.BodyPublisher;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.server.Http2Options;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.HeadersFrame;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2Settings;
import dev.shuttle.wire.http2.SettingsFrame;
import dev.shuttle.wire.http2.WindowUpdateFrame;
import dev.shuttle.wire.testing.H2Peer;
import dev.shuttle.wire.testing.H2PeerListener;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SETTINGS_INITIAL_WINDOW_SIZE changed while a stream is sending (RFC 9113 6.9.2): the sender moves every open
 * stream's window by the difference, below zero if need be, and sends only once it is positive again. Neither
 * Shuttle side changes its own settings mid-connection, so the other end here is the test peer, once against
 * Shuttle's server and once against Shuttle's client. A peer that ignored the change would send at once where these
 * tests wait for nothing to come.
 */
@Timeout(60)
class InitialWindowChangeTest {
    private static final int BODY = 100_000;
    /** How long a sender with no window must stay silent. */
    private static final int QUIET_MILLIS = 300;

    private CrossRoleServer server;

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.close();
        }
    }

    private static SettingsFrame initialWindow(int size) {
        return SettingsFrame.of(List.of(new SettingsFrame.Setting(Http2Settings.INITIAL_WINDOW_SIZE, size)));
    }

    @Test
    void theServerFollowsAnInitialWindowChangeMidStreamThroughANegativeWindow() throws Exception {
        server = CrossRoleServer.start(false, Bodies::serve);
        try (H2Peer client = H2Peer.dial(server.address())) {
            client.send(initialWindow(1000), client.request(1, "/bytes/" + BODY, true));
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            assertThat(readData(client, body, 1000)).as("DATA up to the stream window").isFalse();
            assertThat(dataWithin(client)).as("DATA past a spent window").isZero();

            client.send(initialWindow(500), new WindowUpdateFrame(1, 500)); // 0 + (500 - 1000) + 500: nothing to send
            assertThat(dataWithin(client)).as("DATA while the window came back only to 0").isZero();

            client.send(initialWindow(BODY), new WindowUpdateFrame(0, BODY)); // the stream's window: 0 + BODY - 500
            assertThat(readData(client, body, BODY)).as("END_STREAM").isTrue();
            assertThat(Bodies.readPattern(new java.io.ByteArrayInputStream(body.toByteArray()))).isEqualTo(BODY);
        }
    }

    /**
     * Reads the server's frames, keeping stream 1's DATA in {@code body}, until it holds {@code until} octets;
     * true when the stream ended there.
     */
    private static boolean readData(H2Peer client, ByteArrayOutputStream body, int until) throws IOException {
        while (body.size() < until) {
            Http2Frame frame = client.read();
            assertThat(frame).as("a frame before " + until + " octets of body").isNotNull();
            if (frame instanceof DataFrame data && data.streamId() == 1) {
                ByteBuffer bytes = data.data();
                byte[] copy = new byte[bytes.remaining()];
                bytes.get(copy);
                body.writeBytes(copy);
                assertThat(body.size()).as("octets received against the window").isLessThanOrEqualTo(until);
                if (data.endStream()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** DATA octets that arrive while nothing else does for {@link #QUIET_MILLIS}. */
    private static long dataWithin(H2Peer peer) throws IOException {
        return peer.drain(QUIET_MILLIS).stream().filter(DataFrame.class::isInstance)
                .mapToLong(frame -> ((DataFrame) frame).data().remaining()).sum();
    }

    @Test
    void theClientFollowsAnInitialWindowChangeMidStreamThroughANegativeWindow() throws Exception {
        try (H2PeerListener peer = new H2PeerListener();
             HttpClient client = HttpClient.builder().http2PriorKnowledge(true)
                     .callTimeout(Duration.ofSeconds(30)).build()) {
            // A first call, so that the client holds our SETTINGS before the upload starts.
            CompletableFuture<Response> warm = client.sendAsync(Request.get(peer.url("/warm")));
            H2Peer conn = peer.accept(new SettingsFrame.Setting(Http2Settings.INITIAL_WINDOW_SIZE, 1000));
            conn.respond(conn.expectRequest().streamId(), 200, "warm");
            try (Response response = warm.get(10, TimeUnit.SECONDS)) {
                assertThat(response.string()).isEqualTo("warm");
            }

            CompletableFuture<Response> upload = client.sendAsync(Request.newBuilder(peer.url("/upload"))
                    .POST(BodyPublisher.ofBytes(Bodies.body(BODY))).build());
            H2Peer.ReceivedRequest request = conn.expectRequest();
            int stream = request.streamId();
            long received = uploaded(conn, stream, 1000);
            assertThat(uploadedWithin(conn)).as("DATA past a spent window").isZero();

            conn.send(initialWindow(500), new WindowUpdateFrame(stream, 500)); // 0 + (500 - 1000) + 500
            assertThat(uploadedWithin(conn)).as("DATA while the window came back only to 0").isZero();

            conn.send(initialWindow(60_000), new WindowUpdateFrame(0, BODY)); // the stream's: 0 + 60 000 - 500
            received += uploaded(conn, stream, 59_500);
            assertThat(uploadedWithin(conn)).as("DATA past the grown window").isZero();
            conn.send(new WindowUpdateFrame(stream, (int) (BODY - received)));
            received += uploaded(conn, stream, BODY - received);
            assertThat(received).isEqualTo(BODY);

            conn.respond(stream, 200, "got it");
            try (Response response = upload.get(10, TimeUnit.SECONDS)) {
                assertThat(response.string()).isEqualTo("got it");
            }
        }
    }

    /** Reads the client's DATA on {@code stream} until {@code octets} arrived (never more); returns them. */
    private static long uploaded(H2Peer conn, int stream, long octets) throws IOException {
        long total = 0;
        while (total < octets) {
            DataFrame data = conn.expect(DataFrame.class);
            assertThat(data.streamId()).isEqualTo(stream);
            total += data.data().remaining();
            assertThat(total).as("octets sent against the window").isLessThanOrEqualTo(octets);
        }
        return total;
    }

    /** DATA octets the client sends while nothing else comes for 200 ms (PINGs answered). */
    private static long uploadedWithin(H2Peer conn) throws IOException {
        return conn.drainAvailable().stream().filter(DataFrame.class::isInstance)
                .mapToLong(frame -> ((DataFrame) frame).data().remaining()).sum();
    }

    /**
     * A client may send a stream's first DATA before it has the server's SETTINGS (RFC 9113 3.4), against the
     * default 65 535-octet window, and the server can rely on a smaller window only once its SETTINGS is acknowledged
     * (section 6.5.3). Shuttle's client does so when a cold connection's first call is an upload; with a server
     * window under 65 535 the server resets such a stream.
     */
    @Test
    void aBodyWithinTheDefaultWindowBeforeTheServersSettingsIsAcknowledgedIsAccepted() throws Exception {
        server = CrossRoleServer.start(false, Http2Options.builder().initialWindowSize(1024).build(), Bodies::serve);
        try (H2Peer client = H2Peer.dial(server.address())) {
            byte[] body = Bodies.body(60_000);
            client.send(new HeadersFrame(1, client.requestBlock("POST", "/echo"), false, true));
            client.sendData(1, body, true); // before any ACK of the server's SETTINGS
            H2Peer.StreamOutcome outcome = client.awaitStream(1);
            assertThat(outcome.resetCode()).as("reset code").isEqualTo(-1);
            assertThat(outcome.status()).isEqualTo(200);
            assertThat(outcome.body()).hasSize(body.length);
        }
    }
}
