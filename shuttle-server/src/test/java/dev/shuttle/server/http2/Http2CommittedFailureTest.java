package dev.shuttle.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.Await;
import dev.shuttle.server.Handler;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.LogCaptureAccess;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.RstStreamFrame;
import dev.shuttle.wire.testing.H2Peer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** HTTP/2: a handler failure after commit resets the stream, logged once at WARNING unless the client went away. */
class Http2CommittedFailureTest {
    private HttpServer server;
    private final LogCaptureAccess log = LogCaptureAccess.open();

    private void start(Handler handler) throws IOException {
        server = HttpServer.builder().handler(handler).start();
    }

    @AfterEach
    void stop() {
        log.close();
        if (server != null) {
            server.close();
        }
    }

    @Test
    void sendAfterWritingToTheBodyAppends() throws Exception {
        start((request, response) -> {
            response.body().write("abc".getBytes(StandardCharsets.US_ASCII));
            response.send("def");
        });
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/", true));
            H2Peer.StreamOutcome outcome = client.awaitStream(1);
            assertThat(outcome.resetCode()).isEqualTo(-1);
            assertThat(new String(outcome.body(), StandardCharsets.US_ASCII)).isEqualTo("abcdef");
        }
        assertThat(log.warnings()).isEmpty();
    }

    @Test
    void aBodyLongerThanItsContentLengthResetsTheStream() throws Exception {
        start((request, response) -> {
            response.contentLength(3);
            response.body().write("abcdef".getBytes(StandardCharsets.US_ASCII));
        });
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/", true));
            H2Peer.StreamOutcome outcome = client.awaitStream(1);
            assertThat(outcome.status()).isEqualTo(200);
            assertThat(outcome.resetCode()).isEqualTo(Http2ErrorCode.INTERNAL_ERROR.code());
        }
        Await.until(() -> !log.warnings().isEmpty());
        assertThat(log.warnings()).singleElement().asString().contains("after committing").contains("Content-Length");
    }

    @Test
    void aFailureAfterFlushResetsTheStreamOnce() throws Exception {
        start((request, response) -> {
            response.body().write("part".getBytes(StandardCharsets.US_ASCII));
            response.flush();
            throw new IllegalStateException("boom");
        });
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/", true));
            H2Peer.StreamOutcome outcome = client.awaitStream(1);
            assertThat(new String(outcome.body(), StandardCharsets.US_ASCII)).isEqualTo("part");
            assertThat(outcome.resetCode()).isEqualTo(Http2ErrorCode.INTERNAL_ERROR.code());
            assertThat(client.drain(200)).noneMatch(frame -> frame instanceof RstStreamFrame);
        }
        assertThat(log.warnings()).singleElement().asString().contains("boom");
    }

    @Test
    void aClientResetMidResponseIsNoWarning() throws Exception {
        start((request, response) -> {
            byte[] block = new byte[16 * 1024];
            while (true) {
                response.body().write(block); // until the reset fails a write
            }
        });
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/", true));
            client.awaitHead(1);
            client.send(new RstStreamFrame(1, Http2ErrorCode.CANCEL));
            Await.until(() -> server.stats().streams() == 0);
        }
        assertThat(log.warnings()).isEmpty();
    }
}
