package dev.shuttle.client.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.BodyHandler;
import dev.shuttle.client.BodyPublisher;
import dev.shuttle.client.CompletedResponse;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.server.HttpServer;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.RstStreamFrame;
import dev.shuttle.wire.testing.H2Peer;
import dev.shuttle.wire.testing.H2PeerListener;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * HTTP/2 uploads that meet an early answer: a final status above 299 stops the body (no END_STREAM, so no truncated
 * body looks whole) while its response streams on; {@code Expect: 100-continue} holds the body for the server.
 */
class Http2EarlyResponseTest {
    private static final int MIB = 1024 * 1024;

    @Test
    void aStreamingRefusalStopsTheUploadAndItsBodyIsRead() throws Exception {
        try (H2PeerListener peer = new H2PeerListener();
             HttpClient client = HttpClient.builder().http2PriorKnowledge(true).writeTimeout(HttpClient.NO_TIMEOUT)
                     .build()) {
            Request upload = Request.newBuilder(peer.url("/")).POST(BodyPublisher.ofBytes(new byte[16 * MIB]))
                    .build();
            CompletableFuture<Response> call = client.sendAsync(upload);
            H2Peer conn = peer.accept();
            int stream = conn.expectRequest().streamId();
            // The client fills the initial 64 KiB window and waits for more, which never comes.
            long received = 0;
            while (received < 65_535) {
                received += conn.expect(DataFrame.class).data().remaining();
            }
            conn.sendHeaders(stream, 413, Headers.of("content-type", "text/plain"), false);
            conn.sendData(stream, "too big".getBytes(StandardCharsets.US_ASCII), false);
            // The response is not over, and the window stays shut: only the refusal can end the upload.
            try (Response answer = call.get(10, TimeUnit.SECONDS)) {
                assertThat(answer.status()).isEqualTo(413);
                conn.sendData(stream, new byte[0], true);
                assertThat(answer.string()).isEqualTo("too big");
            }
            // The stream ends with the response: reset with NO_ERROR, never an END_STREAM on a truncated body.
            RstStreamFrame reset = nextReset(conn);
            assertThat(reset.streamId()).isEqualTo(stream);
            assertThat(reset.errorCode()).isEqualTo(Http2ErrorCode.NO_ERROR.code());
        }
    }

    private static RstStreamFrame nextReset(H2Peer conn) throws Exception {
        while (true) {
            Http2Frame frame = conn.nextRaw();
            if (frame instanceof DataFrame data) {
                assertThat(data.endStream()).as("no END_STREAM on a body cut short").isFalse();
            }
            if (frame instanceof RstStreamFrame reset) {
                return reset;
            }
        }
    }

    @Test
    void anOversizedUploadToShuttlesServerGets413() throws Exception {
        try (HttpServer server = HttpServer.builder().port(0).handler((request, response) -> response.send("ok"))
                .start(); HttpClient client = HttpClient.builder().http2PriorKnowledge(true).build()) {
            Request upload = Request.newBuilder("http://127.0.0.1:" + server.port() + "/")
                    .POST(BodyPublisher.ofBytes(new byte[20 * MIB])).build();
            try (Response response = client.send(upload)) {
                assertThat(response.status()).isEqualTo(413);
            }
            Request reading = Request.newBuilder("http://127.0.0.1:" + server.port() + "/")
                    .POST(BodyPublisher.ofStream(() -> new java.io.ByteArrayInputStream(new byte[2 * MIB])))
                    .build();
            assertThat(client.send(reading, BodyHandler.ofString()).status()).as("the connection goes on")
                    .isEqualTo(200);
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        }
    }

    @Test
    void expectContinueWaitsForTheServerAndARefusalSendsNoBody() throws Exception {
        try (H2PeerListener peer = new H2PeerListener();
             HttpClient client = HttpClient.builder().http2PriorKnowledge(true)
                     .expectContinueTimeout(Duration.ofSeconds(30)).build()) {
            Request hello = Request.newBuilder(peer.url("/")).POST(BodyPublisher.ofString("hello"))
                    .expectContinue(true).build();
            CompletableFuture<CompletedResponse<String>> first = client.sendAsync(hello, BodyHandler.ofString());
            H2Peer conn = peer.accept();
            H2Peer.ReceivedRequest request = conn.expectRequest();
            assertThat(request.fields()).containsEntry("expect", "100-continue");
            assertThat(request.endStream()).isFalse();
            conn.sendHeaders(request.streamId(), 100, Headers.EMPTY, false);
            assertThat(conn.expectBody(request.streamId())).isEqualTo(5);
            conn.respond(request.streamId(), 200, "got it");
            assertThat(first.get(10, TimeUnit.SECONDS).body()).isEqualTo("got it");

            CompletableFuture<CompletedResponse<String>> refused = client.sendAsync(hello, BodyHandler.ofString());
            H2Peer.ReceivedRequest second = conn.expectRequest();
            conn.respond(second.streamId(), 401, "no");
            assertThat(refused.get(10, TimeUnit.SECONDS).status()).isEqualTo(401);
            RstStreamFrame reset = nextReset(conn);
            assertThat(reset.streamId()).as("the stream ended without a byte of body").isEqualTo(second.streamId());
        }
    }

    @Test
    void expectContinueAgainstShuttlesServerOverH2c() throws Exception {
        try (HttpServer server = HttpServer.builder().port(0)
                .handler((request, response) -> response.send(request.bodyBytes())).start();
             HttpClient client = HttpClient.builder().http2PriorKnowledge(true).build()) {
            Request upload = Request.newBuilder("http://127.0.0.1:" + server.port() + "/")
                    .PUT(BodyPublisher.ofBytes(new byte[300_000])).expectContinue(true).build();
            assertThat(client.send(upload, BodyHandler.ofBytes()).body()).hasSize(300_000);
        }
    }
}
