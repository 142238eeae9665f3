package dev.shuttle.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.ConnectionInfo;
import dev.shuttle.server.ConnectionListener;
import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.GoAwayEvent;
import dev.shuttle.server.Handler;
import dev.shuttle.server.Http2Options;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.ServerTimeouts;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.GoAwayFrame;
import dev.shuttle.wire.http2.HeadersFrame;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2Settings;
import dev.shuttle.wire.http2.PingFrame;
import dev.shuttle.wire.http2.SettingsFrame;
import dev.shuttle.wire.http2.WindowUpdateFrame;
import dev.shuttle.wire.testing.H2Peer;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How an HTTP/2 connection ends ({@link Goodbye}): every GOAWAY is followed by a half-close and a read until the
 * client closes, so the end the client sees is a FIN after all we wrote, never a reset that would drop it; and a
 * graceful shutdown sends two GOAWAYs so that no request on its way is lost.
 */
@Timeout(60)
class Http2GoodbyeTest {
    private static final int BIG = 1 << 20;

    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch blocked = new CountDownLatch(1);
    /** What the connection listener was told of GOAWAYs (after each frame went out, so perhaps after the client saw it). */
    private final BlockingQueue<GoAwayEvent> goAways = new LinkedBlockingQueue<>();
    /** Every listener event in the order it came: GOAWAYs among the state changes. */
    private final List<String> events = new CopyOnWriteArrayList<>();
    private HttpServer server;

    @AfterEach
    void stop() {
        release.countDown();
        if (server != null) {
            server.close();
        }
    }

    /** {@code /block}: waits for the test, then answers; {@code /big-later}: waits for the test, then sends 1 MiB. */
    private Handler handler() {
        return (request, response) -> {
            switch (request.path()) {
                case "/block" -> {
                    blocked.countDown();
                    release.await(20, TimeUnit.SECONDS);
                    response.send("released");
                }
                case "/big-later" -> {
                    blocked.countDown();
                    release.await(20, TimeUnit.SECONDS);
                    OutputStream out = response.body();
                    byte[] block = new byte[16 * 1024];
                    for (int sent = 0; sent < BIG; sent += block.length) {
                        out.write(block);
                    }
                }
                default -> response.send("ok");
            }
        };
    }

    private void start(ServerTimeouts timeouts) throws IOException {
        server = HttpServer.builder().http2(Http2Options.defaults()).timeouts(timeouts).handler(handler())
                .connectionListener(new ConnectionListener() {
                    @Override
                    public void onStateChange(ConnectionInfo connection, ConnectionState from, ConnectionState to) {
                        events.add(to.toString());
                    }

                    @Override
                    public void onGoAway(ConnectionInfo connection, GoAwayEvent goAway) {
                        events.add("GOAWAY");
                        goAways.add(goAway);
                    }
                }).start();
    }

    private CompletableFuture<Boolean> shutdownInBackground() {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return server.shutdown(Duration.ofSeconds(20));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, Executors.newVirtualThreadPerTaskExecutor());
    }

    /** The listener heard exactly these GOAWAYs, in this order (each within a bound, none after them). */
    private void assertGoAways(GoAwayEvent... expected) throws InterruptedException {
        List<GoAwayEvent> heard = new ArrayList<>();
        for (int i = 0; i < expected.length; i++) {
            GoAwayEvent event = goAways.poll(10, TimeUnit.SECONDS);
            assertThat(event).as("GOAWAY event %d", i).isNotNull();
            heard.add(event);
        }
        server.close();
        heard.addAll(goAways);
        assertThat(heard).containsExactly(expected);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!events.contains("CLOSED") && System.nanoTime() < deadline) {
            Thread.onSpinWait(); // CLOSED is delivered by the closing thread, maybe just after close() returned
        }
        assertThat(events).as("listener events in order").endsWith("CLOSED").containsOnlyOnce("CLOSED");
    }

    @Test
    void aClientsGoAwayAnsweredByTheLastHandlerIsHeardBeforeTheConnectionsClose() throws Exception {
        // The answer leaves from the handler's thread while the reader may already see the client close: the event
        // must still come before CLOSED, as the listener's contract has events in the order they happened.
        start(ServerTimeouts.defaults());
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/block", true));
            assertThat(blocked.await(10, TimeUnit.SECONDS)).isTrue();
            client.send(new GoAwayFrame(0, Http2ErrorCode.NO_ERROR, ""));
            release.countDown();
            assertThat(client.awaitGoAway()).isNotNull();
        }
        assertGoAways(new GoAwayEvent(1, 0, "NO_ERROR", "client GOAWAY", true));
    }

    /** Reads frames until {@code wanted} arrives, answering PINGs as every client does. */
    private static <F extends Http2Frame> F readUntil(H2Peer client, Class<F> wanted) throws IOException {
        for (Http2Frame frame; (frame = client.read()) != null; ) {
            if (wanted.isInstance(frame)) {
                return wanted.cast(frame);
            }
            if (frame instanceof PingFrame ping && !ping.ack()) {
                client.send(new PingFrame(ping.opaqueData(), true));
            }
        }
        throw new AssertionError("the connection ended before a " + wanted.getSimpleName());
    }

    @Test
    void aClientsGoAwayIsAnsweredWithOursAndTheConnectionEndsWithAFin() throws Exception {
        start(ServerTimeouts.defaults());
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/ok", true));
            assertThat(client.awaitStream(1).status()).isEqualTo(200);
            client.send(new GoAwayFrame(0, Http2ErrorCode.NO_ERROR, ""));
            GoAwayFrame ours = client.awaitGoAway();
            assertThat(ours).as("the server's GOAWAY").isNotNull();
            assertThat(ours.lastStreamId()).isEqualTo(1);
            // Frames the client still sends after that (h2spec sends a PING) meet a half-closed connection that
            // reads them: what the client then sees is the end of the stream, not a reset.
            client.send(new PingFrame(1, false), new WindowUpdateFrame(0, 100));
            assertThat(client.awaitEnd()).isTrue();
            assertThat(client.endedByReset()).as("ended by a reset").isFalse();
        }
        assertGoAways(new GoAwayEvent(1, 0, "NO_ERROR", "client GOAWAY", true));
    }

    @Test
    void anIdleConnectionsGoAwayIsFollowedByAFin() throws Exception {
        start(ServerTimeouts.builder().idle(Duration.ofMillis(300)).build());
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/ok", true));
            assertThat(client.awaitStream(1).status()).isEqualTo(200);
            assertThat(client.awaitGoAway().errorCode()).isEqualTo(Http2ErrorCode.NO_ERROR.code());
            client.send(new PingFrame(1, false));
            assertThat(client.awaitEnd()).isTrue();
            assertThat(client.endedByReset()).as("ended by a reset").isFalse();
        }
        assertGoAways(new GoAwayEvent(1, 0, "NO_ERROR", "idle", false));
    }

    @Test
    void aShutdownTakesTheRequestsSentBeforeTheClientSawItsFirstGoAway() throws Exception {
        start(ServerTimeouts.defaults());
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/block", true));
            assertThat(blocked.await(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Boolean> shutdown = shutdownInBackground();

            GoAwayFrame first = client.awaitGoAway();
            assertThat(first.lastStreamId()).as("the first GOAWAY takes every stream").isEqualTo(Integer.MAX_VALUE);
            // A request the client sent before it read that GOAWAY: on the wire already, it must be served.
            client.send(client.request(3, "/ok", true));
            List<Http2Frame> frames = new ArrayList<>();
            GoAwayFrame last = null;
            while (last == null) {
                Http2Frame frame = client.read();
                assertThat(frame).as("a frame before the last GOAWAY").isNotNull();
                if (frame instanceof PingFrame ping && !ping.ack()) {
                    client.send(new PingFrame(ping.opaqueData(), true)); // the last GOAWAY follows its answer
                } else if (frame instanceof GoAwayFrame goAway) {
                    last = goAway;
                } else {
                    frames.add(frame);
                }
            }
            assertThat(last.lastStreamId()).isEqualTo(3);
            assertThat(last.errorCode()).isEqualTo(Http2ErrorCode.NO_ERROR.code());
            // A stream opened after the last GOAWAY is refused: the client may send it elsewhere.
            client.send(client.request(5, "/ok", true));

            release.countDown();
            for (Http2Frame frame; (frame = client.read()) != null; ) {
                frames.add(frame);
            }
            assertThat(frames).anyMatch(f -> f instanceof HeadersFrame h && h.streamId() == 3)
                    .anyMatch(f -> f instanceof DataFrame d && d.streamId() == 1 && d.endStream())
                    .noneMatch(f -> f instanceof HeadersFrame h && h.streamId() == 5);
            assertThat(client.endedByReset()).as("ended by a reset").isFalse();
            assertThat(shutdown.get(20, TimeUnit.SECONDS)).as("graceful").isTrue();
        }
        assertGoAways(new GoAwayEvent(Integer.MAX_VALUE, 0, "NO_ERROR", "shutdown", false),
                new GoAwayEvent(3, 0, "NO_ERROR", "shutdown", false));
    }

    @Test
    void aResponseFinishedAfterTheGoAwayArrivesWholeWhileTheClientKeepsSending() throws Exception {
        start(ServerTimeouts.defaults());
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(SettingsFrame.of(List.of(new SettingsFrame.Setting(Http2Settings.INITIAL_WINDOW_SIZE,
                    Integer.MAX_VALUE))), new WindowUpdateFrame(0, Integer.MAX_VALUE - 65_535));
            client.send(client.request(1, "/big-later", true));
            assertThat(blocked.await(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Boolean> shutdown = shutdownInBackground();
            assertThat(client.awaitGoAway()).isNotNull();
            readUntil(client, GoAwayFrame.class); // the last one, after our PING ACK
            release.countDown();

            long received = 0;
            int uncredited = 0;
            boolean ended = false;
            int frames = 0;
            for (Http2Frame frame; (frame = client.read()) != null; ) {
                if (frame instanceof DataFrame data && data.streamId() == 1) {
                    received += data.data().remaining();
                    uncredited += data.data().remaining();
                    ended |= data.endStream();
                }
                if (++frames % 8 == 0 && uncredited > 0) {
                    // A busy client: credit and a PING while the last stream's response still arrives.
                    client.send(new WindowUpdateFrame(0, uncredited), new PingFrame(frames, false));
                    uncredited = 0;
                }
            }
            assertThat(received).isEqualTo(BIG);
            assertThat(ended).isTrue();
            assertThat(client.endedByReset()).as("ended by a reset").isFalse();
            assertThat(shutdown.get(20, TimeUnit.SECONDS)).as("graceful").isTrue();
        }
    }
}
