package dev.shuttle.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.Handler;
import dev.shuttle.server.Http2Options;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.ServerTimeouts;
import dev.shuttle.wire.http2.ContinuationFrame;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.GoAwayFrame;
import dev.shuttle.wire.http2.HeadersFrame;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2FrameWriter;
import dev.shuttle.wire.http2.Http2Settings;
import dev.shuttle.wire.http2.PingFrame;
import dev.shuttle.wire.http2.PriorityFrame;
import dev.shuttle.wire.http2.RstStreamFrame;
import dev.shuttle.wire.http2.SettingsFrame;
import dev.shuttle.wire.http2.WindowUpdateFrame;
import dev.shuttle.wire.testing.H2Peer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * HTTP/2 attacks from a frame-level client ({@link H2Peer}): each gets the RFC's or the trusted servers' answer
 * (mostly GOAWAY with the error code they use), within a bound, and a second, healthy connection is served while it
 * happens and after. Timeouts are short; the tests wait for outcomes, never for a time.
 */
@Timeout(60)
class Http2AttackTest {
    private static final Duration SHORT = Duration.ofMillis(300);
    /** Far above SHORT, far below "never": an outcome later than this means no deadline fired. */
    private static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(8);

    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger mostRunning = new AtomicInteger();
    private HttpServer server;

    @AfterEach
    void stop() {
        release.countDown();
        if (server != null) {
            server.close();
        }
    }

    private void start(Http2Options options, ServerTimeouts timeouts) throws IOException {
        server = HttpServer.builder().http2(options).timeouts(timeouts).handler(handler()).start();
    }

    private void start(Http2Options options) throws IOException {
        start(options, ServerTimeouts.defaults());
    }

    /** {@code /ok}: a short answer; {@code /block}: holds its stream until the test ends; {@code /big}: 1 MiB. */
    private Handler handler() {
        return (request, response) -> {
            switch (request.path()) {
                case "/block" -> {
                    int now = running.incrementAndGet();
                    mostRunning.accumulateAndGet(now, Math::max);
                    try {
                        release.await(20, TimeUnit.SECONDS);
                    } finally {
                        running.decrementAndGet();
                    }
                    response.send("released");
                }
                case "/big" -> {
                    OutputStream out = response.body();
                    byte[] block = new byte[16 * 1024];
                    for (int i = 0; i < 64; i++) {
                        out.write(block);
                    }
                }
                default -> response.send("ok");
            }
        };
    }

    /** A healthy client on its own connection gets its answer. */
    private void assertHealthyClientServed() throws IOException {
        try (H2Peer healthy = H2Peer.dial(server.localAddress())) {
            healthy.send(healthy.request(1, "/ok", true));
            H2Peer.StreamOutcome outcome = healthy.awaitStream(1);
            assertThat(outcome.status()).isEqualTo(200);
            assertThat(new String(outcome.body(), StandardCharsets.US_ASCII)).isEqualTo("ok");
        }
    }

    /** Sends {@code count} frames made by {@code frame}, in batches, until done or the server closes. */
    private static void flood(H2Peer client, int count, IntFunction<Http2Frame> frame) {
        int batch = 100;
        try {
            for (int i = 0; i < count; i += batch) {
                Http2Frame[] frames = new Http2Frame[Math.min(batch, count - i)];
                for (int j = 0; j < frames.length; j++) {
                    frames[j] = frame.apply(i + j);
                }
                client.send(frames);
            }
        } catch (IOException e) {
            // the server closed on us, as it should at some point
        }
    }

    private void assertGoAway(H2Peer attacker, Http2ErrorCode expected, long start) throws IOException {
        GoAwayFrame goAway = attacker.awaitGoAway();
        assertThat(goAway).as("GOAWAY").isNotNull();
        assertThat(Http2ErrorCode.describe(goAway.errorCode())).isEqualTo(expected.toString());
        assertThat(attacker.awaitEnd()).isTrue();
        assertThat(System.nanoTime() - start).isLessThan(BOUND_NANOS);
    }

    // ---- rapid reset, MadeYouReset ----

    @Test
    void rapidResetIsBoundedByConcurrencyAndEndsInEnhanceYourCalm() throws Exception {
        start(Http2Options.builder().maxConcurrentStreams(16).build());
        assertHealthyClientServed();
        long start = System.nanoTime();
        try (H2Peer attacker = H2Peer.dial(server.localAddress())) {
            CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> flood(attacker, 20_000, i -> {
                int id = 1 + 2 * (i / 2);
                return i % 2 == 0 ? attacker.request(id, "/block", true) : new RstStreamFrame(id, 0x8 /* CANCEL */);
            }));
            assertGoAway(attacker, Http2ErrorCode.ENHANCE_YOUR_CALM, start);
            sending.get(10, TimeUnit.SECONDS);
        }
        // A reset stream's handler still counted: never more handlers than MAX_CONCURRENT_STREAMS at once.
        assertThat(mostRunning.get()).isLessThanOrEqualTo(16);
        assertHealthyClientServed();
    }

    @Test
    void rapidResetOfStreamsWhoseHandlersKeepUpEndsInEnhanceYourCalm() throws Exception {
        // Slots enough for every stream, and quick handlers: no bound on work is reached, yet every reset came in the
        // read that opened its stream, which no client waiting for an answer does.
        start(Http2Options.builder().maxConcurrentStreams(2000).build());
        long start = System.nanoTime();
        try (H2Peer attacker = H2Peer.dial(server.localAddress())) {
            CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> flood(attacker, 1200, i -> {
                int id = 1 + 2 * (i / 2);
                return i % 2 == 0 ? attacker.request(id, "/ok", true) : new RstStreamFrame(id, 0x8 /* CANCEL */);
            }));
            assertGoAway(attacker, Http2ErrorCode.ENHANCE_YOUR_CALM, start);
            sending.get(10, TimeUnit.SECONDS);
        }
        assertHealthyClientServed();
    }

    @Test
    void resetsOfStreamsWhoseAnswerBeganAreNotCountedAsAnAttack() throws Exception {
        // A client that closes bodies unread (Shuttle's own client, a browser leaving a page) resets each stream
        // after its head arrived: 300 in a row, three times the reset budget, are ordinary traffic.
        start(Http2Options.defaults());
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            for (int i = 0; i < 300; i++) {
                int id = 1 + 2 * i;
                client.send(client.request(id, "/big", true));
                client.awaitHead(id);
                client.send(new RstStreamFrame(id, 0x8 /* CANCEL */));
            }
            // The DATA the reset streams got before their resets spent the connection window: give it back.
            client.send(new WindowUpdateFrame(0, 1 << 30));
            client.send(client.request(601, "/ok", true));
            assertThat(client.awaitStream(601).status()).isEqualTo(200);
        }
    }

    @Test
    void resetsTheServerIsProvokedIntoSendingCountAgainstTheSameBudget() throws Exception {
        // MadeYouReset: no RST_STREAM from the client at all; DATA on a stream it already ended makes the server
        // reset it (STREAM_CLOSED), while the handler runs on.
        start(Http2Options.builder().maxConcurrentStreams(1000).build());
        long start = System.nanoTime();
        try (H2Peer attacker = H2Peer.dial(server.localAddress())) {
            CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> flood(attacker, 4000, i -> {
                int id = 1 + 2 * (i / 2);
                return i % 2 == 0 ? attacker.request(id, "/block", true)
                        : new DataFrame(id, ByteBuffer.wrap(new byte[] {'x'}), false);
            }));
            assertHealthyClientServed();
            assertGoAway(attacker, Http2ErrorCode.ENHANCE_YOUR_CALM, start);
            sending.get(10, TimeUnit.SECONDS);
        }
        assertHealthyClientServed();
    }

    @Test
    void streamsBeyondTheLimitAreRefusedAndAFewResetsAreFine() throws Exception {
        start(Http2Options.builder().maxConcurrentStreams(2).build());
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/block", true), client.request(3, "/block", true),
                    client.request(5, "/ok", true));
            assertThat(client.awaitStream(5).resetCode()).isEqualTo(Http2ErrorCode.REFUSED_STREAM.code());
            client.send(new RstStreamFrame(1, 0x8), new RstStreamFrame(3, 0x8));
            release.countDown();
            // The reset streams count until their handlers have returned (rapid reset's defence), which happens a
            // moment after the release: a stream opened before that is refused too. Then one is served.
            int id = 7;
            H2Peer.StreamOutcome outcome;
            do {
                client.send(client.request(id, "/ok", true));
                outcome = client.awaitStream(id);
                id += 2;
            } while (outcome.resetCode() == Http2ErrorCode.REFUSED_STREAM.code() && id < 7 + 2 * 50);
            assertThat(outcome.status()).isEqualTo(200);
        }
    }

    // ---- CONTINUATION floods, HPACK bombs ----

    @Test
    void countlessEmptyContinuationFramesEndInEnhanceYourCalm() throws Exception {
        start(Http2Options.defaults());
        long start = System.nanoTime();
        try (H2Peer attacker = H2Peer.dial(server.localAddress())) {
            ByteBuffer block = attacker.requestBlock("GET", "/ok");
            attacker.send(new HeadersFrame(1, block, true, false));
            CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> flood(attacker, 100_000,
                    i -> new ContinuationFrame(1, ByteBuffer.allocate(0), false)));
            assertHealthyClientServed();
            assertGoAway(attacker, Http2ErrorCode.ENHANCE_YOUR_CALM, start);
            sending.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aFieldBlockBeyondItsBoundEndsInEnhanceYourCalm() throws Exception {
        start(Http2Options.defaults());
        long start = System.nanoTime();
        try (H2Peer attacker = H2Peer.dial(server.localAddress())) {
            byte[] filler = new byte[16_000];
            attacker.send(new HeadersFrame(1, attacker.requestBlock("GET", "/ok"), true, false));
            CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> flood(attacker, 1000,
                    i -> new ContinuationFrame(1, ByteBuffer.wrap(filler), false)));
            assertGoAway(attacker, Http2ErrorCode.ENHANCE_YOUR_CALM, start);
            sending.get(10, TimeUnit.SECONDS);
        }
        assertHealthyClientServed();
    }

    static Stream<Arguments> neverEndingBlocks() {
        return Stream.of(Arguments.of("on an idle connection", false), Arguments.of("beside an open stream", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("neverEndingBlocks")
    void aFieldBlockThatNeverEndsIsClosedAtTheHeaderDeadline(String what, boolean otherStreamOpen)
            throws Exception {
        // Every other timeout is long: only the field block's own deadline can end this connection.
        start(Http2Options.defaults(), ServerTimeouts.builder().headerRead(SHORT).build());
        try (H2Peer attacker = H2Peer.dial(server.localAddress())) {
            if (otherStreamOpen) {
                attacker.send(attacker.request(1, "/block", true));
            }
            long start = System.nanoTime();
            attacker.send(new HeadersFrame(3, attacker.requestBlock("GET", "/ok"), true, false));
            assertHealthyClientServed();
            assertThat(attacker.awaitEnd()).isTrue();
            assertThat(System.nanoTime() - start).as(what).isLessThan(BOUND_NANOS);
        }
    }

    @Test
    void aFrameTrickledByteByByteIsClosedAtItsDeadline() throws Exception {
        start(Http2Options.defaults(), ServerTimeouts.builder().bodyRead(SHORT).build());
        try (H2Peer attacker = H2Peer.dial(server.localAddress())) {
            attacker.send(attacker.request(1, "/block", false));
            ByteBuffer frame = ByteBuffer.allocate(9 + 16_000);
            Http2FrameWriter.write(frame, new DataFrame(1, ByteBuffer.allocate(16_000), false));
            byte[] bytes = frame.array();
            long start = System.nanoTime();
            CompletableFuture<Void> trickle = CompletableFuture.runAsync(() -> {
                try {
                    for (byte b : bytes) {
                        attacker.sendRaw(new byte[] {b});
                        TimeUnit.MILLISECONDS.sleep(50); // each byte well within the per-read timeout
                    }
                } catch (IOException | InterruptedException e) {
                    // closed by the server: expected
                }
            });
            assertThat(attacker.awaitEnd()).isTrue();
            assertThat(System.nanoTime() - start).isLessThan(BOUND_NANOS);
            trickle.cancel(true);
        }
        assertHealthyClientServed();
    }

    @Test
    void anHpackBombIsAnswered431AndTheConnectionLives() throws Exception {
        start(Http2Options.defaults());
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            // One 4000-octet entry inserted into the dynamic table, then referenced 4000 times: 12 KiB on the wire,
            // 16 MB decoded. Fields past the list limit are never materialised.
            ByteBuffer head = client.requestBlock("GET", "/ok");
            byte[] value = "v".repeat(4000).getBytes(StandardCharsets.US_ASCII);
            ByteBuffer block = ByteBuffer.allocate(head.remaining() + 16 + value.length + 4000);
            block.put(head);
            block.put((byte) 0x40).put((byte) 6).put("x-bomb".getBytes(StandardCharsets.US_ASCII));
            block.put((byte) 0x7f).put((byte) ((4000 - 127) % 128 | 0x80)).put((byte) ((4000 - 127) / 128));
            block.put(value);
            for (int i = 0; i < 4000; i++) {
                block.put((byte) (0x80 | 62)); // indexed: the entry just inserted
            }
            block.flip();
            byte[] all = new byte[block.remaining()];
            block.get(all);
            // Split into frames the size the server accepts.
            int first = Math.min(all.length, 16_000);
            client.send(new HeadersFrame(1, ByteBuffer.wrap(all, 0, first), true, first == all.length));
            for (int offset = first; offset < all.length; offset += 16_000) {
                int length = Math.min(16_000, all.length - offset);
                client.send(new ContinuationFrame(1, ByteBuffer.wrap(all, offset, length), offset + length == all.length));
            }
            assertThat(client.awaitStream(1).status()).isEqualTo(431);
            // The entry inserted by hand is unknown to the client's encoder: the next block uses the static table
            // only (GET, http, /, and :authority "t" as a literal not indexed).
            byte[] plain = {(byte) 0x82, (byte) 0x86, (byte) 0x84, 0x01, 0x01, 't'};
            client.send(new HeadersFrame(3, ByteBuffer.wrap(plain), true, true));
            assertThat(client.awaitStream(3).status()).as("the connection still serves").isEqualTo(200);
        }
        assertHealthyClientServed();
    }

    // ---- control-frame floods ----

    static Stream<Arguments> floods() {
        return Stream.of(
                Arguments.of("SETTINGS", (IntFunction<Http2Frame>) i -> SettingsFrame.of(List.of())),
                Arguments.of("PING", (IntFunction<Http2Frame>) i -> new PingFrame(i, false)),
                Arguments.of("PRIORITY", (IntFunction<Http2Frame>) i -> new PriorityFrame(101 + 2 * i,
                        new dev.shuttle.wire.http2.Priority(0, false, 16))),
                Arguments.of("empty DATA", (IntFunction<Http2Frame>) i -> new DataFrame(1, ByteBuffer.allocate(0),
                        false)),
                Arguments.of("WINDOW_UPDATE of 1", (IntFunction<Http2Frame>) i -> new WindowUpdateFrame(0, 1)));
    }

    @ParameterizedTest(name = "{0} flood")
    @MethodSource("floods")
    void aControlFrameFloodEndsInEnhanceYourCalm(String what, IntFunction<Http2Frame> frame) throws Exception {
        start(Http2Options.defaults());
        long start = System.nanoTime();
        try (H2Peer attacker = H2Peer.dial(server.localAddress())) {
            attacker.send(attacker.request(1, "/block", false)); // a stream for the DATA flood to use
            CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> flood(attacker, 100_000, frame));
            assertHealthyClientServed();
            assertGoAway(attacker, Http2ErrorCode.ENHANCE_YOUR_CALM, start);
            sending.get(10, TimeUnit.SECONDS);
        }
        assertHealthyClientServed();
    }

    @Test
    void aFewControlFramesAreAnsweredAsUsual() throws Exception {
        start(Http2Options.defaults());
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            for (int i = 0; i < 50; i++) {
                client.send(new PingFrame(i, false), SettingsFrame.of(List.of()), new WindowUpdateFrame(0, 1));
            }
            client.send(client.request(1, "/ok", true));
            assertThat(client.awaitStream(1).status()).isEqualTo(200);
        }
    }

    // ---- slow and silent clients ----

    @Test
    void aPrefaceThatNeverCompletesIsClosedAtTheHeaderDeadline() throws Exception {
        start(Http2Options.defaults(), ServerTimeouts.builder().headerRead(SHORT).build());
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(server.localAddress(), 5000);
            socket.setSoTimeout(10_000);
            long start = System.nanoTime();
            socket.getOutputStream().write("PRI * HTTP/2.0\r\n".getBytes(StandardCharsets.US_ASCII));
            assertHealthyClientServed();
            byte[] answer = socket.getInputStream().readAllBytes(); // our SETTINGS at most, then the close
            assertThat(answer.length).isLessThan(200);
            assertThat(System.nanoTime() - start).isLessThan(BOUND_NANOS);
        }
    }

    @Test
    void anIdleConnectionGetsGoAwayAtTheIdleTimeout() throws Exception {
        start(Http2Options.defaults(), ServerTimeouts.builder().idle(SHORT).build());
        try (H2Peer idle = H2Peer.dial(server.localAddress())) {
            // The reader parks while the stream's handler still runs; the handler ends after that, so the idle
            // deadline must start when the last stream ends, not when the reader parked.
            idle.send(idle.request(1, "/block", true));
            while (server.stats().parked() == 0 || running.get() == 0) {
                Thread.onSpinWait();
            }
            release.countDown();
            assertThat(idle.awaitStream(1).status()).isEqualTo(200);
            long start = System.nanoTime();
            assertGoAway(idle, Http2ErrorCode.NO_ERROR, start);
        }
    }

    @Test
    void aClientThatResetsItsStreamsMidResponseLeavesNoWarning() throws Exception {
        start(Http2Options.defaults(), ServerTimeouts.builder().write(SHORT).build());
        try (dev.shuttle.server.LogCaptureAccess log = dev.shuttle.server.LogCaptureAccess.open();
             H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/big", true), client.request(3, "/big", true));
            client.send(new RstStreamFrame(1, 0x8));
            client.socket().setSoLinger(true, 0);
            client.close(); // stream 3 abandoned with the whole connection, by a reset
            assertHealthyClientServed();
            server.close();
            assertThat(log.warnings()).isEmpty();
        }
    }

    // ---- flow control ----

    @Test
    void aClientThatNeverOpensItsWindowLosesItsStreamAtTheWriteTimeout() throws Exception {
        start(Http2Options.defaults(), ServerTimeouts.builder().write(SHORT).build());
        try (H2Peer staller = H2Peer.dial(server.localAddress())) {
            staller.send(SettingsFrame.of(List.of(new SettingsFrame.Setting(Http2Settings.INITIAL_WINDOW_SIZE, 0))));
            long start = System.nanoTime();
            staller.send(staller.request(1, "/big", true));
            assertHealthyClientServed();
            H2Peer.StreamOutcome outcome = staller.awaitStream(1);
            assertThat(outcome.status()).isEqualTo(200);
            assertThat(outcome.body()).isEmpty();
            assertThat(outcome.resetCode()).isNotEqualTo(-1);
            assertThat(System.nanoTime() - start).isLessThan(BOUND_NANOS);
            // The connection itself is fine: another stream is answered (its small body fits no window either,
            // so only its head arrives before its own reset).
            staller.send(new PingFrame(7, false));
            assertThat(staller.drain(500)).anyMatch(f -> f instanceof PingFrame ping && ping.ack());
        }
        assertHealthyClientServed();
    }

    @Test
    void requestBodiesTheHandlerNeverReadsGiveTheirWindowBackWhenTheHandlerReturns() throws Exception {
        start(Http2Options.builder().connectionWindowSize(65_535).initialWindowSize(65_535).build());
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            // 40 requests with a whole 4 KiB body each, 160 KiB in all on a 64 KiB connection window, to a handler
            // that answers without reading: each body's window must come back, or the seventeenth overruns it.
            for (int i = 0; i < 40; i++) {
                int id = 1 + 2 * i;
                client.send(client.request(id, "/ok", false), new DataFrame(id, ByteBuffer.allocate(4096), true));
                assertThat(client.awaitStream(id).status()).as("request %d", i).isEqualTo(200);
            }
        }
    }

    // ---- stream-id misuse, closed streams, oversized frames ----

    @Test
    void dataStillInFlightWhenTheServerAnsweredAndEndedAnUploadIsIgnored() throws Exception {
        start(Http2Options.defaults());
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            // 300 uploads (more than the 200 resets a connection may cause) that the handler answers without reading:
            // the server ends each with RST_STREAM(NO_ERROR), and the client's next DATA frame was already on its way
            // (RFC 9113 5.4.2 and 8.1: the server must be ready for it and ignore it). That is no misbehaviour. Every
            // tenth upload ends with trailers instead, which must not end the connection either.
            for (int i = 0; i < 300; i++) {
                int id = 1 + 2 * i;
                client.send(client.request(id, "/ok", false), new DataFrame(id, ByteBuffer.allocate(1024), false));
                assertThat(client.awaitStream(id).status()).as("upload %d", i).isEqualTo(200);
                client.send(i % 10 == 9 ? client.trailers(id, "x-checksum", "abc")
                        : new DataFrame(id, ByteBuffer.allocate(1024), true));
            }
            client.send(client.request(601, "/ok", true));
            assertThat(client.awaitStream(601).status()).isEqualTo(200);
            assertThat(client.drain(300)).noneMatch(f -> f instanceof GoAwayFrame)
                    .noneMatch(f -> f instanceof RstStreamFrame reset
                            && reset.errorCode() == Http2ErrorCode.STREAM_CLOSED.code());
        }
    }

    static Stream<Arguments> protocolViolations() {
        return Stream.of(
                Arguments.of("HEADERS on an even stream id", Http2ErrorCode.PROTOCOL_ERROR,
                        (Violation) client -> client.send(client.request(2, "/ok", true))),
                Arguments.of("HEADERS on a lower stream id the client skipped", Http2ErrorCode.PROTOCOL_ERROR,
                        (Violation) client -> {
                            client.send(client.request(5, "/ok", true));
                            client.awaitStream(5);
                            client.send(client.request(3, "/ok", true));
                        }),
                Arguments.of("HEADERS again on a finished stream", Http2ErrorCode.STREAM_CLOSED,
                        (Violation) client -> {
                            client.send(client.request(1, "/ok", true));
                            client.awaitStream(1);
                            client.send(client.request(1, "/ok", true));
                        }),
                Arguments.of("DATA on an idle stream", Http2ErrorCode.PROTOCOL_ERROR,
                        (Violation) client -> client.send(new DataFrame(9, ByteBuffer.wrap(new byte[] {1}), true))),
                Arguments.of("RST_STREAM on an idle stream", Http2ErrorCode.PROTOCOL_ERROR,
                        (Violation) client -> client.send(new RstStreamFrame(9, 0x8))),
                Arguments.of("WINDOW_UPDATE on an idle stream", Http2ErrorCode.PROTOCOL_ERROR,
                        (Violation) client -> client.send(new WindowUpdateFrame(9, 100))),
                Arguments.of("a frame over SETTINGS_MAX_FRAME_SIZE", Http2ErrorCode.FRAME_SIZE_ERROR,
                        (Violation) client -> {
                            client.send(client.request(1, "/block", false));
                            ByteBuffer frame = ByteBuffer.allocate(9 + 16_385);
                            Http2FrameWriter.writeFrameHeader(frame, 16_385, Http2Frame.TYPE_DATA, 0, 1);
                            frame.position(frame.limit());
                            client.sendRaw(frame);
                        }),
                Arguments.of("a frame length of 16 MiB", Http2ErrorCode.FRAME_SIZE_ERROR,
                        (Violation) client -> client.sendRaw(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 0,
                                0, 0, 0, 1})),
                Arguments.of("PUSH_PROMISE from a client", Http2ErrorCode.PROTOCOL_ERROR,
                        (Violation) client -> {
                            client.send(client.request(1, "/block", false));
                            client.send(new dev.shuttle.wire.http2.PushPromiseFrame(1, 2, client.requestBlock("GET",
                                    "/x"), true, 0));
                        }));
    }

    @FunctionalInterface
    interface Violation {
        void commit(H2Peer client) throws IOException;
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("protocolViolations")
    void aProtocolViolationEndsTheConnectionWithItsCode(String what, Http2ErrorCode code, Violation violation)
            throws Exception {
        start(Http2Options.defaults());
        long start = System.nanoTime();
        try (H2Peer attacker = H2Peer.dial(server.localAddress())) {
            violation.commit(attacker);
            assertGoAway(attacker, code, start);
        }
        assertHealthyClientServed();
    }

    @Test
    void dataOnAStreamTheClientAlreadyEndedResetsOnlyThatStream() throws Exception {
        start(Http2Options.defaults());
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/block", true));
            client.send(new DataFrame(1, ByteBuffer.wrap(new byte[] {1}), false));
            assertThat(client.awaitStream(1).resetCode()).isEqualTo(Http2ErrorCode.STREAM_CLOSED.code());
            client.send(client.request(3, "/ok", true));
            assertThat(client.awaitStream(3).status()).isEqualTo(200);
        }
    }
}
