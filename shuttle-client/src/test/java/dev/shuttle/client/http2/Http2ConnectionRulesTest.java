package dev.shuttle.client.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.client.testing.ScriptedH2Peer;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.GoAwayFrame;
import dev.shuttle.wire.http2.Http2ErrorCode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Connection-level rules of RFC 9113 as the client applies them to what a scripted server sends: the client's own
 * GOAWAY, frames on streams the client never opened.
 */
class Http2ConnectionRulesTest {
    private ScriptedH2Peer peer;
    private HttpClient client;

    @BeforeEach
    void start() throws Exception {
        peer = new ScriptedH2Peer();
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
        ScriptedH2Peer.Conn conn = peer.accept();
        ScriptedH2Peer.ReceivedRequest a = conn.expectRequest();
        CompletableFuture<Response> second = client.sendAsync(Request.get(peer.url("/second")));
        ScriptedH2Peer.ReceivedRequest b = conn.expectRequest();
        assertThat(b.streamId()).isEqualTo(3);
        conn.sendHeaders(a.streamId(), 200, Headers.of("content-length", "10"), false);
        conn.sendHeaders(b.streamId(), 200, Headers.of("content-length", "10"), false);
        return new OpenStreams(conn, first.get(5, TimeUnit.SECONDS), second.get(5, TimeUnit.SECONDS));
    }

    private record OpenStreams(ScriptedH2Peer.Conn conn, Response first, Response second) {
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
}
