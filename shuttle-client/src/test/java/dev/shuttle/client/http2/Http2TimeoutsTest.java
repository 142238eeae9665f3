package dev.shuttle.client.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.BodyPublisher;
import dev.shuttle.client.ClientInternals;
import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.ConnectionInfo;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Settings;
import dev.shuttle.wire.http2.RstStreamFrame;
import dev.shuttle.wire.http2.SettingsFrame;
import dev.shuttle.wire.http2.WindowUpdateFrame;
import dev.shuttle.wire.testing.H2Peer;
import dev.shuttle.wire.testing.H2PeerListener;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The read, response-header and write timeouts of HTTP/2 callers (kept by the connection's {@link WaitDeadlines}, not
 * by a timed park per wait): each fails its own call at about its time, resets only its stream, and the connection
 * goes on serving the others; but a connection whose socket takes nothing for the write timeout fails as a whole. The
 * call timeout frees an upload whatever it waits for.
 */
class Http2TimeoutsTest {
    private final H2PeerListener peer;
    private HttpClient client;

    Http2TimeoutsTest() throws Exception {
        peer = new H2PeerListener();
    }

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        peer.close();
    }

    @Test
    void aSilentServerFailsTheCallAfterTheReadTimeoutAndOnlyItsStreamIsReset() throws Exception {
        client = HttpClient.builder().http2PriorKnowledge(true).readTimeout(Duration.ofMillis(300)).build();
        long start = System.nanoTime();
        CompletableFuture<Response> silent = client.sendAsync(Request.get(peer.url("/silent")));
        H2Peer conn = peer.accept();
        H2Peer.ReceivedRequest request = conn.expectRequest();

        assertThatThrownBy(() -> silent.get(5, TimeUnit.SECONDS))
                .cause()
                .isInstanceOfSatisfying(HttpTimeoutException.class,
                        e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.READ))
                .hasMessageContaining("no response byte for 300 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .isGreaterThanOrEqualTo(Duration.ofMillis(300))
                .isLessThan(Duration.ofSeconds(3));
        onlyItsStreamWasReset(conn, request.streamId());
    }

    /** {@code streamId} was reset with CANCEL, and its connection serves the next request. */
    private void onlyItsStreamWasReset(H2Peer conn, int streamId) throws Exception {
        RstStreamFrame reset = conn.expect(RstStreamFrame.class);
        assertThat(reset.streamId()).isEqualTo(streamId);
        assertThat(reset.error()).isEqualTo(Http2ErrorCode.CANCEL);

        CompletableFuture<Response> next = client.sendAsync(Request.get(peer.url("/next")));
        H2Peer.ReceivedRequest second = conn.expectRequest();
        conn.respond(second.streamId(), 200, "still here");
        try (Response r = next.get(5, TimeUnit.SECONDS)) {
            assertThat(r.string()).isEqualTo("still here");
        }
        assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        ClientInternals.awaitSettled(client);
    }

    @Test
    void aBodyThatStallsFailsTheReadAfterTheReadTimeout() throws Exception {
        client = HttpClient.builder().http2PriorKnowledge(true).readTimeout(Duration.ofMillis(300)).build();
        CompletableFuture<Response> call = client.sendAsync(Request.get(peer.url("/stall")));
        H2Peer conn = peer.accept();
        H2Peer.ReceivedRequest request = conn.expectRequest();
        conn.sendHeaders(request.streamId(), 200, Headers.of("content-length", "10"), false);
        conn.sendData(request.streamId(), new byte[4], false);
        try (Response response = call.get(5, TimeUnit.SECONDS)) {
            InputStream body = response.body();
            assertThat(body.readNBytes(4)).hasSize(4);
            long start = System.nanoTime();
            assertThatThrownBy(body::read)
                    .isInstanceOfSatisfying(HttpTimeoutException.class,
                            e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.READ));
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isGreaterThanOrEqualTo(Duration.ofMillis(300))
                    .isLessThan(Duration.ofSeconds(3));
        }
        assertThat(conn.expect(RstStreamFrame.class).streamId()).isEqualTo(request.streamId());
    }

    @Test
    void theResponseHeaderTimeoutFailsEachWaitingCallAtItsOwnTime() throws Exception {
        client = HttpClient.builder().http2PriorKnowledge(true)
                .responseHeaderTimeout(Duration.ofMillis(300))
                .readTimeout(Duration.ofSeconds(30))
                .build();
        long firstStart = System.nanoTime();
        CompletableFuture<Response> first = client.sendAsync(Request.get(peer.url("/first")));
        H2Peer conn = peer.accept();
        H2Peer.ReceivedRequest firstRequest = conn.expectRequest();
        Thread.sleep(150);
        long secondStart = System.nanoTime();
        CompletableFuture<Response> second = client.sendAsync(Request.get(peer.url("/second")));
        H2Peer.ReceivedRequest secondRequest = conn.expectRequest();
        CompletableFuture<Response> answered = client.sendAsync(Request.get(peer.url("/answered")));
        H2Peer.ReceivedRequest answeredRequest = conn.expectRequest();
        conn.respond(answeredRequest.streamId(), 200, "ok");

        assertThatThrownBy(() -> first.get(5, TimeUnit.SECONDS)).cause()
                .isInstanceOfSatisfying(HttpTimeoutException.class,
                        e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.RESPONSE_HEADERS));
        long firstFailed = System.nanoTime();
        assertThatThrownBy(() -> second.get(5, TimeUnit.SECONDS)).cause()
                .isInstanceOfSatisfying(HttpTimeoutException.class,
                        e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.RESPONSE_HEADERS));
        long secondFailed = System.nanoTime();
        assertThat(Duration.ofNanos(firstFailed - firstStart)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(Duration.ofNanos(secondFailed - secondStart)).isGreaterThanOrEqualTo(Duration.ofMillis(300))
                .isLessThan(Duration.ofSeconds(3));
        try (Response r = answered.get(5, TimeUnit.SECONDS)) {
            assertThat(r.string()).isEqualTo("ok");
        }
        assertThat(conn.expect(RstStreamFrame.class).streamId()).isEqualTo(firstRequest.streamId());
        assertThat(conn.expect(RstStreamFrame.class).streamId()).isEqualTo(secondRequest.streamId());
        assertThat(client.stats().connectionsOpened()).isEqualTo(1);
    }

    @Test
    void anUploadThatGetsNoWindowFailsAfterTheWriteTimeoutAndOnlyItsStreamIsReset() throws Exception {
        client = HttpClient.builder().http2PriorKnowledge(true).writeTimeout(Duration.ofMillis(300))
                .readTimeout(Duration.ofSeconds(30)).build();
        CompletableFuture<Response> upload = client.sendAsync(Request.newBuilder(peer.url("/upload"))
                .POST(BodyPublisher.ofBytes(new byte[1 << 20])).build());
        H2Peer conn = peer.accept();
        H2Peer.ReceivedRequest request = conn.expectRequest();
        long received = 0;
        while (received < 65_535) { // the default stream window, and no WINDOW_UPDATE from this peer
            received += conn.expect(DataFrame.class).data().remaining();
        }
        assertThatThrownBy(() -> upload.get(5, TimeUnit.SECONDS)).cause()
                .isInstanceOfSatisfying(HttpTimeoutException.class,
                        e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.WRITE))
                .hasMessageContaining("(65535 bytes sent)")
                .hasMessageContaining("the server granted no flow-control window for");
        onlyItsStreamWasReset(conn, request.streamId());
    }

    /**
     * An upload of 16 MiB to a server that grants every window but reads nothing from the socket (its receive buffer
     * 4 KiB): the writer blocks in a socket write, and the upload waits for room in its queue.
     */
    private CompletableFuture<Response> uploadToAServerThatReadsNothing(H2PeerListener deaf, Duration callTimeout) {
        Request.Builder upload = Request.newBuilder(deaf.url("/upload")).POST(BodyPublisher.ofBytes(new byte[16 << 20]));
        if (callTimeout != null) {
            upload.timeout(callTimeout);
        }
        return client.sendAsync(upload.build());
    }

    private static H2Peer acceptGrantingEveryWindow(H2PeerListener deaf) throws Exception {
        H2Peer conn = deaf.accept(new SettingsFrame.Setting(Http2Settings.INITIAL_WINDOW_SIZE,
                Integer.MAX_VALUE));
        conn.send(new WindowUpdateFrame(0, Integer.MAX_VALUE - 65_535));
        return conn;
    }

    @Test
    void aConnectionWhoseSocketTakesNothingForTheWriteTimeoutFailsWithEveryStream() throws Exception {
        // Staged: the upload's body waits until the GET's HEADERS reached the server, so the GET's stream is on the
        // connection before its socket stops taking bytes; a GET still queued when the connection fails would be
        // unprocessed, retried on a new connection the deaf server never answers.
        client = HttpClient.builder().http2PriorKnowledge(true).writeTimeout(Duration.ofSeconds(2))
                .readTimeout(Duration.ofSeconds(30)).build();
        try (H2PeerListener deaf = new H2PeerListener(4096)) {
            CountDownLatch getArrived = new CountDownLatch(1);
            CompletableFuture<Response> upload = client.sendAsync(Request.newBuilder(deaf.url("/upload"))
                    .POST(BodyPublisher.ofStream(() -> {
                        await(getArrived);
                        return new ByteArrayInputStream(new byte[16 << 20]);
                    }, 16 << 20)).build());
            try (H2Peer conn = acceptGrantingEveryWindow(deaf)) {
                assertThat(conn.expectRequest().fields().get(":path")).isEqualTo("/upload");
                CompletableFuture<ConnectionInfo> joined = new CompletableFuture<>();
                CompletableFuture<Response> behind = client.sendAsync(Request.newBuilder(deaf.url("/behind"))
                        .trace(new ClientTrace() {
                            @Override
                            public void gotConn(ConnectionInfo connection) {
                                joined.complete(connection);
                            }
                        }).build());
                assertThat(conn.expectRequest().fields().get(":path")).isEqualTo("/behind");
                assertThat(joined.get(10, TimeUnit.SECONDS).reused()).as("the GET shares the upload's connection")
                        .isTrue();
                getArrived.countDown(); // from now on the server reads nothing
                assertThatThrownBy(() -> upload.get(10, TimeUnit.SECONDS)).cause()
                        .isInstanceOfSatisfying(HttpTimeoutException.class,
                                e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.WRITE))
                        .hasMessageContaining("a write to the connection stayed blocked for");
                assertThatThrownBy(() -> behind.get(10, TimeUnit.SECONDS)).as("a GET on the same connection")
                        .cause().isInstanceOf(HttpTimeoutException.class)
                        .hasMessageContaining("a write to the connection stayed blocked for");
                assertThat(conn.closedByClient()).isTrue();
            }
        }
        ClientInternals.awaitSettled(client);
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("stage not reached");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void theCallTimeoutFreesAnUploadWaitingForASocketThatTakesNothing() throws Exception {
        client = HttpClient.builder().http2PriorKnowledge(true).writeTimeout(HttpClient.NO_TIMEOUT)
                .readTimeout(Duration.ofSeconds(30)).build();
        try (H2PeerListener deaf = new H2PeerListener(4096)) {
            CompletableFuture<Response> upload = uploadToAServerThatReadsNothing(deaf, Duration.ofMillis(500));
            H2Peer conn = acceptGrantingEveryWindow(deaf);
            try {
                assertThatThrownBy(() -> upload.get(5, TimeUnit.SECONDS)).cause()
                        .isInstanceOfSatisfying(HttpTimeoutException.class,
                                e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.CALL))
                        .hasMessageContaining("call timed out while sending the request body (")
                        .hasMessageContaining("no room on the connection for");
            } finally {
                conn.close(); // the server goes away, and the stuck connection with it
            }
        }
        ClientInternals.awaitSettled(client);
    }
}
