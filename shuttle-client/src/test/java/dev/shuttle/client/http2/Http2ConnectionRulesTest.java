package dev.shuttle.client.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.GoAwayFrame;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.RstStreamFrame;
import dev.shuttle.wire.http2.WindowUpdateFrame;
import dev.shuttle.wire.testing.H2Peer;
import dev.shuttle.wire.testing.H2PeerListener;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Connection-level rules of RFC 9113 as the client applies them to what a scripted server sends: the client's own
 * GOAWAY, frames on streams the client never opened.
 */
class Http2ConnectionRulesTest {
    private H2PeerListener peer;
    private HttpClient client;

    @BeforeEach
    void start() throws Exception {
        peer = new H2PeerListener();
        client = HttpClient.builder().http2PriorKnowledge(true).build();
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        peer.close();
    }

    /** Two requests on one connection whose responses have begun: streams 1 and 3 are open. */
    private OpenStreams openTwoStreams() throws Exception {
        CompletableFuture<Response> first = client.sendAsync(Request.get(peer.url("/first")));
        H2Peer conn = peer.accept();
        H2Peer.ReceivedRequest a = conn.expectRequest();
        CompletableFuture<Response> second = client.sendAsync(Request.get(peer.url("/second")));
        H2Peer.ReceivedRequest b = conn.expectRequest();
        assertThat(b.streamId()).isEqualTo(3);
        conn.sendHeaders(a.streamId(), 200, Headers.of("content-length", "10"), false);
        conn.sendHeaders(b.streamId(), 200, Headers.of("content-length", "10"), false);
        return new OpenStreams(conn, first.get(5, TimeUnit.SECONDS), second.get(5, TimeUnit.SECONDS));
    }

    private record OpenStreams(H2Peer conn, Response first, Response second) {
    }

    @Test
    void theClientsGoAwayNamesNoServerStreamAsProcessed() throws Exception {
        OpenStreams open = openTwoStreams();
        // A connection error of the server's making: DATA on an even stream, which only a server could open.
        open.conn().send(new DataFrame(2, ByteBuffer.wrap(new byte[1]), false));

        GoAwayFrame goAway = open.conn().expect(GoAwayFrame.class);
        assertThat(goAway.error()).isEqualTo(Http2ErrorCode.PROTOCOL_ERROR);
        assertThat(goAway.lastStreamId()).as("a client processes no server-initiated stream (RFC 9113 6.8)").isZero();
        assertThatThrownBy(() -> open.first().bytes()).isInstanceOf(IOException.class);
        open.first().close();
        open.second().close();
    }

    /** A frame on a stream the client never opened, with streams 1 and 3 open: above the highest, or an even id. */
    enum NeverOpened {
        HEADERS_ABOVE_THE_HIGHEST, HEADERS_ON_AN_EVEN_ID, DATA_ABOVE_THE_HIGHEST, RST_STREAM_ABOVE_THE_HIGHEST,
        RST_STREAM_ON_AN_EVEN_ID, WINDOW_UPDATE_ABOVE_THE_HIGHEST, WINDOW_UPDATE_ON_AN_EVEN_ID;

        void sendOn(H2Peer conn) throws IOException {
            switch (this) {
                case HEADERS_ABOVE_THE_HIGHEST -> conn.sendHeaders(5, 200, Headers.EMPTY, true);
                case HEADERS_ON_AN_EVEN_ID -> conn.sendHeaders(2, 200, Headers.EMPTY, true);
                case DATA_ABOVE_THE_HIGHEST -> conn.send(new DataFrame(5, ByteBuffer.wrap(new byte[1]), true));
                case RST_STREAM_ABOVE_THE_HIGHEST -> conn.send(new RstStreamFrame(5, Http2ErrorCode.CANCEL));
                case RST_STREAM_ON_AN_EVEN_ID -> conn.send(new RstStreamFrame(2, Http2ErrorCode.CANCEL));
                case WINDOW_UPDATE_ABOVE_THE_HIGHEST -> conn.send(new WindowUpdateFrame(5, 1000));
                case WINDOW_UPDATE_ON_AN_EVEN_ID -> conn.send(new WindowUpdateFrame(2, 1000));
            }
        }
    }

    /**
     * A stream the client never opened is idle, and a frame other than PRIORITY on an idle stream is a connection
     * error of type PROTOCOL_ERROR (RFC 9113 sections 5.1, 5.1.1): the streams in flight fail, nothing else is tried
     * on the connection.
     */
    @ParameterizedTest
    @EnumSource(NeverOpened.class)
    void aFrameOnAStreamTheClientNeverOpenedIsAConnectionProtocolError(NeverOpened frame) throws Exception {
        OpenStreams open = openTwoStreams();
        frame.sendOn(open.conn());

        GoAwayFrame goAway = open.conn().expect(GoAwayFrame.class);
        assertThat(goAway.error()).isEqualTo(Http2ErrorCode.PROTOCOL_ERROR);
        assertThat(open.conn().closedByClient()).isTrue();
        assertThatThrownBy(() -> open.first().bytes()).isInstanceOf(IOException.class)
                .hasMessageContaining("never opened");
        assertThatThrownBy(() -> open.second().bytes()).isInstanceOf(IOException.class);
        open.first().close();
        open.second().close();
    }

    /**
     * A padded DATA frame that makes its body longer than its content-length resets its stream, but the server
     * spent the frame's whole flow-controlled length (data, Pad Length octet and padding) on the connection window:
     * all of it must come back, or every such frame starves the connection's other streams a little more. Half of
     * the client's 16 MiB connection window in such frames, one per stream, must bring a WINDOW_UPDATE for exactly
     * that half.
     */
    @Test
    void paddedDataThatBreaksTheContentLengthGivesItsWholeLengthBackToTheConnection() throws Exception {
        int frameLength = 16_384; // 16 128 data octets, the Pad Length octet and 255 of padding
        int frames = (8 << 20) / frameLength;
        H2Peer conn = null;
        for (int i = 0; i < frames; i++) {
            CompletableFuture<Response> call = client.sendAsync(Request.get(peer.url("/padded/" + i)));
            if (conn == null) {
                conn = peer.accept();
            }
            int streamId = nextRequest(conn);
            conn.sendHeaders(streamId, 200, Headers.of("content-length", "10"), false);
            conn.send(new DataFrame(streamId, ByteBuffer.wrap(new byte[frameLength - 256]), false, 256));
            try (Response response = call.get(5, TimeUnit.SECONDS)) {
                assertThatThrownBy(response::bytes).hasMessageContaining("longer than its content-length");
            } catch (ExecutionException e) {
                assertThat(e.getCause()).hasMessageContaining("longer than its content-length");
            }
        }
        long widening = (16 << 20) - 65_535; // the client's first WINDOW_UPDATE: 64 KiB to 16 MiB
        while (conn.connectionCredit() < widening + (8 << 20)) {
            conn.nextRaw(); // fails the test when no frame comes for 5 s
        }
        assertThat(conn.connectionCredit()).isEqualTo(widening + (8 << 20));

        CompletableFuture<Response> next = client.sendAsync(Request.get(peer.url("/next")));
        int streamId = nextRequest(conn);
        conn.respond(streamId, 200, "not starved");
        try (Response response = next.get(5, TimeUnit.SECONDS)) {
            assertThat(response.string()).isEqualTo("not starved");
        }
    }

    /** The next request's stream id, skipping the resets and credit the client sends meanwhile. */
    private static int nextRequest(H2Peer conn) throws IOException {
        while (true) {
            Http2Frame frame = conn.nextRaw();
            if (frame instanceof dev.shuttle.wire.http2.HeadersFrame headers) {
                return headers.streamId();
            }
        }
    }

    /**
     * A server that sends PINGs and reads nothing fills the client's socket buffers with PING ACKs; past
     * {@link WriterThread#MAX_QUEUED_CONTROL} queued answers the client closes the connection instead of queueing
     * more (memory stays bounded), failing its streams with an IOException that says so. A connection to another
     * server carries on.
     */
    @Test
    void aServerFloodingPingsWhileReadingNothingLosesItsConnectionAndNoOtherOne() throws Exception {
        try (H2PeerListener flooder = new H2PeerListener(4096)) {
            CompletableFuture<Response> other = client.sendAsync(Request.get(peer.url("/other")));
            H2Peer otherConn = peer.accept();
            int otherStream = otherConn.expectRequest().streamId();

            CompletableFuture<Response> flooded = client.sendAsync(Request.get(flooder.url("/flooded")));
            H2Peer conn = flooder.accept();
            conn.expectRequest();
            long max = 2_000_000;
            long sent = conn.floodPings(1000, max);
            assertThat(sent).as("PINGs sent before the client closed the connection").isLessThan(max);
            assertThatThrownBy(() -> flooded.get(5, TimeUnit.SECONDS)).cause().isInstanceOf(IOException.class)
                    .hasMessageContaining("another PING to answer while 10000 control frames wait");

            otherConn.respond(otherStream, 200, "unaffected");
            try (Response response = other.get(5, TimeUnit.SECONDS)) {
                assertThat(response.string()).isEqualTo("unaffected");
            }
        }
    }
}
