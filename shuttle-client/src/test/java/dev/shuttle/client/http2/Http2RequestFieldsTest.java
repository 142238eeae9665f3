package dev.shuttle.client.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.shuttle.client.BodyPublisher;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.wire.testing.H2Peer;
import dev.shuttle.wire.testing.H2PeerListener;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The field blocks a request goes out as, as a scripted peer decodes them: pseudo-headers, the caller's fields in
 * lower case, then user-agent and content-length; connection-specific fields, and those the Connection field names,
 * left out.
 */
class Http2RequestFieldsTest {
    private final H2PeerListener peer;
    private final HttpClient client = HttpClient.builder().http2PriorKnowledge(true).build();
    private H2Peer conn;

    Http2RequestFieldsTest() throws Exception {
        peer = new H2PeerListener();
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        peer.close();
    }

    private H2Peer.ReceivedRequest sent(Request request) throws Exception {
        CompletableFuture<Response> call = client.sendAsync(request);
        if (conn == null) {
            conn = peer.accept();
        }
        H2Peer.ReceivedRequest received = conn.expectRequest();
        if (!received.endStream()) {
            conn.expectBody(received.streamId());
        }
        conn.respond(received.streamId(), 200, "ok");
        try (Response response = call.get(5, TimeUnit.SECONDS)) {
            assertThat(response.string()).isEqualTo("ok");
        }
        return received;
    }

    @Test
    void aGetCarriesPseudoHeadersTheCallersFieldsTheUserAgentAndAcceptEncodingInThatOrder() throws Exception {
        H2Peer.ReceivedRequest get = sent(Request.newBuilder(peer.url("/path?q=1"))
                .header("X-Trace", "  abc ")
                .build());
        assertThat(get.fields()).containsExactly(
                entry(":method", "GET"),
                entry(":scheme", "http"),
                entry(":authority", "127.0.0.1:" + peer.port()),
                entry(":path", "/path?q=1"),
                entry("x-trace", "abc"),
                entry("user-agent", "shuttle/0.1"),
                entry("accept-encoding", "gzip, deflate"));
        assertThat(get.endStream()).isTrue();
    }

    @Test
    void aPostWithoutBodySaysContentLengthZeroAndOneWithABodyItsLength() throws Exception {
        H2Peer.ReceivedRequest empty = sent(Request.newBuilder(peer.url("/empty"))
                .POST(BodyPublisher.none()).build());
        assertThat(empty.fields()).containsEntry("content-length", "0");
        assertThat(empty.endStream()).isTrue();

        H2Peer.ReceivedRequest five = sent(Request.newBuilder(peer.url("/five"))
                .POST(BodyPublisher.ofBytes(new byte[5])).build());
        assertThat(five.fields()).containsEntry("content-length", "5");
        assertThat(five.endStream()).isFalse();

        H2Peer.ReceivedRequest delete = sent(Request.newBuilder(peer.url("/gone")).DELETE().build());
        assertThat(delete.fields()).doesNotContainKey("content-length");
    }

    @Test
    void connectionSpecificFieldsAndTheOnesConnectionNamesStayOutAndTheCallersUserAgentWins() throws Exception {
        H2Peer.ReceivedRequest get = sent(Request.newBuilder(peer.url("/c"))
                .header("Connection", "keep-alive, X-Hop")
                .header("X-Hop", "1")
                .header("Keep-Alive", "timeout=5")
                .header("User-Agent", "mine/2")
                .header("X-Kept", "2")
                .build());
        assertThat(get.fields()).doesNotContainKeys("connection", "x-hop", "keep-alive");
        assertThat(get.fields()).containsEntry("user-agent", "mine/2").containsEntry("x-kept", "2");
    }
}
