package dev.shuttle.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.ClientGoneException;
import dev.shuttle.server.Handler;
import dev.shuttle.server.HttpServer;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Settings;
import dev.shuttle.wire.http2.RstStreamFrame;
import dev.shuttle.wire.http2.SettingsFrame;
import dev.shuttle.wire.testing.H2Peer;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** HTTP/2: RST_STREAM and the connection's end reach the request's cancellation and its blocked reads and writes. */
class Http2ClientGoneTest {
    private HttpServer server;
    private final CountDownLatch handlerWaits = new CountDownLatch(1);
    private final CompletableFuture<Throwable> outcome = new CompletableFuture<>();

    private void start(Handler handler) throws IOException {
        server = HttpServer.builder().handler(handler).start();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aResetFiresTheSignalAHandlerWaitsOn() throws Exception {
        start((request, response) -> {
            handlerWaits.countDown();
            request.cancellation().await();
            outcome.complete(request.cancellation().cause());
        });
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/", true));
            assertThat(handlerWaits.await(10, TimeUnit.SECONDS)).isTrue();
            client.send(new RstStreamFrame(1, Http2ErrorCode.CANCEL));
            assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(ClientGoneException.class)
                    .hasMessageContaining("reset stream 1 (CANCEL)");
        }
    }

    @Test
    void aResetInterruptsABlockedBodyRead() throws Exception {
        start((request, response) -> {
            handlerWaits.countDown();
            try {
                request.body().read(new byte[10]);
                outcome.complete(null);
            } catch (IOException e) {
                outcome.complete(e);
            }
        });
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/", false)); // a body is announced, none comes
            assertThat(handlerWaits.await(10, TimeUnit.SECONDS)).isTrue();
            client.send(new RstStreamFrame(1, Http2ErrorCode.CANCEL));
            assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(ClientGoneException.class);
        }
    }

    @Test
    void aResetInterruptsAWriteWaitingForWindow() throws Exception {
        start((request, response) -> {
            try {
                response.flush(); // the head needs no window
                handlerWaits.countDown();
                response.body().write(new byte[100]); // no window: blocks
                response.flush();
                outcome.complete(null);
            } catch (IOException e) {
                outcome.complete(e);
            }
        });
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(SettingsFrame.of(List.of(new SettingsFrame.Setting(Http2Settings.INITIAL_WINDOW_SIZE, 0))));
            client.send(client.request(1, "/", true));
            client.awaitHead(1);
            assertThat(handlerWaits.await(10, TimeUnit.SECONDS)).isTrue();
            client.send(new RstStreamFrame(1, Http2ErrorCode.CANCEL));
            assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(ClientGoneException.class);
        }
    }

    @Test
    void theConnectionsEndFiresEveryStreamsSignal() throws Exception {
        CountDownLatch bothWait = new CountDownLatch(2);
        List<CompletableFuture<Throwable>> causes = List.of(new CompletableFuture<>(), new CompletableFuture<>());
        start((request, response) -> {
            int index = request.path().equals("/a") ? 0 : 1;
            var signal = request.cancellation();
            bothWait.countDown();
            signal.await();
            causes.get(index).complete(signal.cause());
        });
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/a", true), client.request(3, "/b", true));
            assertThat(bothWait.await(10, TimeUnit.SECONDS)).isTrue();
        } // closing the socket ends the connection
        for (CompletableFuture<Throwable> cause : causes) {
            assertThat(cause.get(10, TimeUnit.SECONDS)).isInstanceOf(ClientGoneException.class)
                    .hasMessageContaining("closed");
        }
    }
}
