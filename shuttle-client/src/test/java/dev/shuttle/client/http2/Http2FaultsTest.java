package dev.shuttle.client.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.BodyPublisher;
import dev.shuttle.client.ClientInternals;
import dev.shuttle.client.DrainOutcome;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.Origin;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.RecordingTrace;
import dev.shuttle.client.testing.StagedHook;
import dev.shuttle.client.testing.ThreadDump;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.GoAwayFrame;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.PingFrame;
import dev.shuttle.wire.http2.RstStreamFrame;
import dev.shuttle.wire.testing.H2Peer;
import dev.shuttle.wire.testing.H2PeerListener;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * HTTP/2 faults staged frame by frame with a scripted peer (h2c, prior knowledge): GOAWAY between two streams,
 * REFUSED_STREAM, an early close, a server that stops granting window, and an idle connection that parks, answers a
 * PING while parked, and works again.
 */
class Http2FaultsTest {
    private H2PeerListener peer;
    private RecordingTrace trace;
    private HttpClient client;

    @BeforeEach
    void start() throws Exception {
        peer = new H2PeerListener();
        trace = new RecordingTrace();
        client = HttpClient.builder().http2PriorKnowledge(true).trace(trace).build();
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        peer.close();
    }

    private Origin origin() {
        return Origin.of(URI.create(peer.url("/")));
    }

    private static int available(Response response) {
        try {
            return response.body().available();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A first request, answered "one"; then the connection parks with no thread. Returns the peer's connection. */
    private H2Peer answerOneRequestAndAwaitParked() throws Exception {
        CompletableFuture<Response> call = client.sendAsync(Request.get(peer.url("/one")));
        H2Peer conn = peer.accept();
        conn.respond(conn.expectRequest().streamId(), 200, "one");
        try (Response r = call.get(5, TimeUnit.SECONDS)) {
            assertThat(r.string()).isEqualTo("one");
        }
        Http2Connection connection = onlyConnection();
        Await.until("parked", () -> connection.ioState() == Http2Parking.Io.PARKED && !connection.hasThreads());
        return conn;
    }

    private Http2Connection onlyConnection() {
        List<?> connections = ClientInternals.pool(client).multiplexedConnections(origin());
        assertThat(connections).hasSize(1);
        return (Http2Connection) connections.get(0);
    }

    @Test
    void streamsAboveGoAwayAreRetriedOnANewConnectionWhileTheOthersFinish() throws Exception {
        CompletableFuture<Response> first = client.sendAsync(Request.get(peer.url("/first")));
        H2Peer conn1 = peer.accept();
        H2Peer.ReceivedRequest a = conn1.expectRequest();
        // A POST: not idempotent, yet retried, because GOAWAY proves the server never processed it.
        CompletableFuture<Response> second = client.sendAsync(Request.newBuilder(peer.url("/second"))
                .POST(BodyPublisher.ofString("x")).build());
        H2Peer.ReceivedRequest b = conn1.expectRequest();
        assertThat(b.streamId()).isGreaterThan(a.streamId());
        conn1.send(new GoAwayFrame(a.streamId(), Http2ErrorCode.NO_ERROR, "going away"));
        conn1.respond(a.streamId(), 200, "first");

        H2Peer conn2 = peer.accept();
        H2Peer.ReceivedRequest retried = conn2.expectRequest();
        assertThat(retried.fields()).containsEntry(":path", "/second").containsEntry(":method", "POST");
        assertThat(conn2.expectBody(retried.streamId())).isEqualTo(1);
        conn2.respond(retried.streamId(), 201, "second");

        try (Response r1 = first.get(5, TimeUnit.SECONDS); Response r2 = second.get(5, TimeUnit.SECONDS)) {
            assertThat(r1.string()).isEqualTo("first");
            assertThat(r2.status()).isEqualTo(201);
            assertThat(r2.string()).isEqualTo("second");
            assertThat(r1.connection().id()).isNotEqualTo(r2.connection().id());
        }
        assertThat(trace.retries.get()).isEqualTo(1);
        assertThat(conn1.closedByClient()).as("the old connection closes after its last stream").isTrue();
        ClientInternals.awaitSettled(client);
    }

    @Test
    void refusedStreamIsRetriedOnTheSameConnection() throws Exception {
        CompletableFuture<Response> call = client.sendAsync(Request.newBuilder(peer.url("/refused"))
                .POST(BodyPublisher.ofString("body")).build());
        H2Peer conn = peer.accept();
        H2Peer.ReceivedRequest refused = conn.expectRequest();
        conn.send(new RstStreamFrame(refused.streamId(), Http2ErrorCode.REFUSED_STREAM));
        H2Peer.ReceivedRequest again = conn.expectRequestAfterData();
        while (true) { // the retried stream's body
            DataFrame data = conn.expect(DataFrame.class);
            if (data.streamId() == again.streamId() && data.endStream()) {
                break;
            }
        }
        conn.respond(again.streamId(), 200, "ok");
        try (Response response = call.get(5, TimeUnit.SECONDS)) {
            assertThat(response.string()).isEqualTo("ok");
            assertThat(response.version()).isEqualTo(HttpVersion.HTTP_2);
            assertThat(response.connection().protocol()).isEqualTo(HttpVersion.HTTP_2);
        }
        assertThat(again.streamId()).isGreaterThan(refused.streamId());
        assertThat(trace.retries.get()).isEqualTo(1);
        assertThat(peer.pendingConnections()).isZero();
        ClientInternals.awaitSettled(client);
    }

    @Test
    void closingAnUnreadBodyResetsItsStreamAndKeepsTheConnection() throws Exception {
        CompletableFuture<Response> call = client.sendAsync(Request.get(peer.url("/big")));
        H2Peer conn = peer.accept();
        H2Peer.ReceivedRequest request = conn.expectRequest();
        conn.sendHeaders(request.streamId(), 200, Headers.of("content-length", "1000000"), false);
        conn.sendData(request.streamId(), new byte[3 * 16_384], false);
        Response response = call.get(5, TimeUnit.SECONDS);
        Await.until("the three frames arrived", () -> available(response) == 3 * 16_384);
        response.close();

        RstStreamFrame reset = conn.expect(RstStreamFrame.class);
        assertThat(reset.streamId()).isEqualTo(request.streamId());
        assertThat(reset.error()).isEqualTo(Http2ErrorCode.CANCEL);
        assertThat(trace.closed).singleElement().satisfies(closed -> {
            assertThat(closed.outcome()).isEqualTo(DrainOutcome.RESET_STREAM);
            assertThat(closed.bytesDiscarded()).isEqualTo(3 * 16_384);
        });
        assertThat(client.stats().drains(DrainOutcome.RESET_STREAM)).isEqualTo(1);

        CompletableFuture<Response> next = client.sendAsync(Request.get(peer.url("/next")));
        H2Peer.ReceivedRequest second = conn.expectRequest();
        conn.respond(second.streamId(), 200, "same connection");
        try (Response r = next.get(5, TimeUnit.SECONDS)) {
            assertThat(r.string()).isEqualTo("same connection");
            assertThat(r.connection().reused()).isTrue();
            assertThat(r.streamId()).isEqualTo(second.streamId()).isEqualTo(3);
        }
        assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        ClientInternals.awaitSettled(client);
    }

    @Test
    void closingTheLastUnreadBodyWakesTheBlockedReaderWithAPingAndTheConnectionParks() throws Exception {
        CompletableFuture<Response> call = client.sendAsync(Request.get(peer.url("/big")));
        H2Peer conn = peer.accept();
        H2Peer.ReceivedRequest request = conn.expectRequest();
        conn.sendHeaders(request.streamId(), 200, Headers.of("content-length", "1000000"), false);
        Response response = call.get(5, TimeUnit.SECONDS);
        Http2Connection connection = onlyConnection();
        // Once the reader has handled the head it blocks in a read for this stream's DATA (until then, a close finds
        // it not blocked: it would see nothing to wait for, linger and park unaided, with no PING to test).
        Await.until("reader blocked for the DATA", connection::readerBlocked);
        response.close(); // the reader is blocked in a read for this stream's DATA, which will never come now

        assertThat(conn.expect(RstStreamFrame.class).streamId()).isEqualTo(request.streamId());
        // The peer sends nothing more on its own: only the client's PING (answered by expect) lets the reader out.
        PingFrame ping = conn.expect(PingFrame.class);
        assertThat(ping.ack()).isFalse();
        Await.until("parked", () -> connection.ioState() == Http2Parking.Io.PARKED && !connection.hasThreads());
        // By exact name: readers of other tests' connections may still be ending in this JVM. Awaited: the thread
        // that parked the connection ends just after.
        Await.until("no reader thread", () -> !ThreadDump.named("shuttle-h2-reader-")
                .contains("shuttle-h2-reader-" + connection.id()));
        assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        ClientInternals.awaitSettled(client);
    }

    @Test
    void aServerThatStopsReadingBlocksTheUploadUntilTheCallTimeoutResetsOnlyItsStream() throws Exception {
        Request upload = Request.newBuilder(peer.url("/upload"))
                .POST(BodyPublisher.ofBytes(new byte[1 << 20]))
                .timeout(Duration.ofMillis(700))
                .build();
        CompletableFuture<Response> call = client.sendAsync(upload);
        H2Peer conn = peer.accept();
        H2Peer.ReceivedRequest request = conn.expectRequest();
        long received = 0;
        while (received < 65_535) { // the default stream window, and no WINDOW_UPDATE from this peer
            received += conn.expect(DataFrame.class).data().remaining();
        }
        assertThat(received).isEqualTo(65_535);
        long start = System.nanoTime();
        assertThatThrownBy(() -> call.get(5, TimeUnit.SECONDS))
                .cause()
                .isInstanceOf(HttpTimeoutException.class)
                .hasMessageContaining("granted no flow-control window")
                .hasMessageContaining("65535 bytes sent");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        RstStreamFrame reset = conn.expect(RstStreamFrame.class);
        assertThat(reset.streamId()).isEqualTo(request.streamId());

        // The connection survived: a GET (no body, so no window needed) goes over it.
        CompletableFuture<Response> next = client.sendAsync(Request.get(peer.url("/after")));
        H2Peer.ReceivedRequest second = conn.expectRequest();
        conn.respond(second.streamId(), 200, "alive");
        try (Response r = next.get(5, TimeUnit.SECONDS)) {
            assertThat(r.string()).isEqualTo("alive");
        }
        assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        ClientInternals.awaitSettled(client);
    }

    @Test
    void anIdleConnectionParksWithoutThreadsAnswersAPingWhileParkedAndWorksAgain() throws Exception {
        CompletableFuture<Response> call = client.sendAsync(Request.get(peer.url("/one")));
        H2Peer conn = peer.accept();
        H2Peer.ReceivedRequest request = conn.expectRequest();
        conn.respond(request.streamId(), 200, "one");
        try (Response r = call.get(5, TimeUnit.SECONDS)) {
            assertThat(r.string()).isEqualTo("one");
        }
        Http2Connection connection = onlyConnection();
        Await.until("parked", () -> connection.ioState() == Http2Parking.Io.PARKED);
        assertThat(connection.hasThreads()).isFalse();
        // By exact name: readers and writers of other tests' connections may still be ending in this JVM. Awaited:
        // the reader that parked the connection, and the writer it dismissed, end just after.
        Await.until("no reader or writer thread", () -> {
            List<String> threads = ThreadDump.named("shuttle-h2-");
            return !threads.contains("shuttle-h2-reader-" + connection.id())
                    && !threads.contains("shuttle-h2-writer-" + connection.id());
        });
        assertThat(connection.chunks.free()).as("no body chunks kept while parked").isZero();

        conn.send(new PingFrame(42, false));
        PingFrame ack = conn.expect(PingFrame.class);
        assertThat(ack.ack()).isTrue();
        assertThat(ack.opaqueData()).isEqualTo(42);
        Await.until("parked again", () -> connection.ioState() == Http2Parking.Io.PARKED
                && !connection.hasThreads());

        CompletableFuture<Response> again = client.sendAsync(Request.get(peer.url("/two")));
        H2Peer.ReceivedRequest second = conn.expectRequest();
        conn.respond(second.streamId(), 200, "two");
        try (Response r = again.get(5, TimeUnit.SECONDS)) {
            assertThat(r.string()).isEqualTo("two");
            assertThat(r.connection().wasIdle()).isTrue();
        }
        assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        ClientInternals.awaitSettled(client);
    }

    @Test
    void aConnectionThatFailsWhileAStreamTakesItBackFromParkingStaysClosedAndTheRequestIsRetried() throws Exception {
        answerOneRequestAndAwaitParked();
        Http2Connection connection = onlyConnection();
        // Staged: the connection fails (the pool closing it, a failed write) just as a new stream takes it back.
        CountDownLatch unparking = new CountDownLatch(1);
        CountDownLatch failed = new CountDownLatch(1);
        connection.parking.beforeUnpark = StagedHook.pauseUntil(unparking, failed);
        CompletableFuture<Response> again = client.sendAsync(Request.get(peer.url("/two")));
        assertThat(unparking.await(5, TimeUnit.SECONDS)).isTrue();
        connection.failed(new IOException("staged failure"), null);
        failed.countDown();
        // The stream never left: it is retried on a new connection, and the failed one stays closed.
        H2Peer second = peer.accept();
        H2Peer.ReceivedRequest retried = second.expectRequest();
        second.respond(retried.streamId(), 200, "two");
        try (Response r = again.get(5, TimeUnit.SECONDS)) {
            assertThat(r.string()).isEqualTo("two");
        }
        assertThat(connection.ioState()).as("not made ACTIVE again after it failed")
                .isEqualTo(Http2Parking.Io.CLOSED);
        assertThat(client.stats().connectionsOpened()).isEqualTo(2);
    }

    @Test
    void anInterruptResetsTheStreamNotTheConnection() throws Exception {
        CompletableFuture<Response> call = client.sendAsync(Request.get(peer.url("/slow")));
        H2Peer conn = peer.accept();
        H2Peer.ReceivedRequest request = conn.expectRequest();
        call.cancel(true); // interrupts the sending thread, which waits for the head
        RstStreamFrame reset = conn.expect(RstStreamFrame.class);
        assertThat(reset.streamId()).isEqualTo(request.streamId());
        assertThat(reset.error()).isEqualTo(Http2ErrorCode.CANCEL);

        CompletableFuture<Response> next = client.sendAsync(Request.get(peer.url("/next")));
        H2Peer.ReceivedRequest second = conn.expectRequest();
        conn.respond(second.streamId(), 200, "fine");
        try (Response r = next.get(5, TimeUnit.SECONDS)) {
            assertThat(r.string()).isEqualTo("fine");
        }
        assertThat(client.stats().connectionsOpened()).isEqualTo(1);
    }

    @Test
    void creditReturnedWhileTheConnectionIsParkedWaitsForItToBeActiveAgain() throws Exception {
        // Eight 1 MiB bodies arrive whole and are closed unread after the connection parked: the eighth brings the
        // dropped bytes to half the 16 MiB connection window, so a WINDOW_UPDATE falls due while the watcher holds
        // the (non-blocking) channel. A writer started then failed with IllegalBlockingModeException and took the
        // connection down; the update must wait for the next stream instead.
        byte[] mebibyte = new byte[1 << 20];
        H2Peer conn = null;
        Http2Connection connection = null;
        for (int i = 0; i < 8; i++) {
            CompletableFuture<Response> call = client.sendAsync(Request.get(peer.url("/mib/" + i)));
            if (conn == null) {
                conn = peer.accept();
            }
            H2Peer.ReceivedRequest request = conn.expectRequest();
            conn.sendHeaders(request.streamId(), 200, Headers.of("content-length", "" + mebibyte.length), false);
            conn.sendData(request.streamId(), mebibyte, true);
            Response response = call.get(5, TimeUnit.SECONDS);
            Http2Connection parked = onlyConnection();
            connection = parked;
            Await.until("parked with the body unread", () -> parked.ioState() == Http2Parking.Io.PARKED
                    && !parked.hasThreads());
            response.close();
            Await.until("no writer", () -> !parked.hasThreads());
            assertThat(parked.ioState()).as("after close " + i).isEqualTo(Http2Parking.Io.PARKED);
        }
        assertThat(connection.isHealthy()).isTrue();
        assertThat(client.stats().drains(DrainOutcome.REUSED_INLINE)).isEqualTo(8);

        CompletableFuture<Response> next = client.sendAsync(Request.get(peer.url("/next")));
        H2Peer.ReceivedRequest request = conn.expectRequest();
        assertThat(conn.connectionCredit()).as("the initial widening, then the queued 8 MiB before the HEADERS")
                .isEqualTo((16 << 20) - 65_535 + (8 << 20));
        conn.respond(request.streamId(), 200, "same connection");
        try (Response r = next.get(5, TimeUnit.SECONDS)) {
            assertThat(r.string()).isEqualTo("same connection");
        }
        assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        assertThat(trace.retries.get()).isZero();
        ClientInternals.awaitSettled(client);
    }

    @Test
    void headersQueuedBehindAFailingWriteFailAsUnprocessedInsteadOfWaitingForever() throws Exception {
        CompletableFuture<Response> first = client.sendAsync(Request.get(peer.url("/first")));
        H2Peer conn = peer.accept();
        conn.respond(conn.expectRequest().streamId(), 200, "first");
        first.get(5, TimeUnit.SECONDS).close();
        Http2Connection connection = onlyConnection();

        // The writer stops before its next socket write, with A's HEADERS in hand, until B's are queued behind.
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        connection.writer.beforeWrite(StagedHook.pauseUntil(writing, release));
        CompletableFuture<Response> a = client.sendAsync(Request.get(peer.url("/a")));
        assertThat(writing.await(5, TimeUnit.SECONDS)).isTrue();
        RecordingTrace traceB = new RecordingTrace();
        CompletableFuture<Response> b = client.sendAsync(Request.newBuilder(peer.url("/b")).trace(traceB).build());
        Await.until("B's HEADERS queued", () -> traceB.events.contains("wroteHeaders"));
        connection.transport.close(); // the write fails: the connection with it
        connection.writer.beforeWrite(null);
        release.countDown();

        // Whatever is retried lands on a new connection; B must be among it, not wait for a writer that is gone.
        // A and B are retried at once, and each may dial (a clean run saw B wait 10 s on a second connection this test
        // did not serve): every new connection is served.
        Thread server = Thread.ofVirtual().start(() -> {
            while (true) {
                H2Peer next;
                try {
                    next = peer.accept();
                } catch (IOException | AssertionError | InterruptedException e) {
                    return; // no more connections
                }
                Thread.ofVirtual().start(() -> serveEveryRequest(next));
            }
        });
        // Bounded, not quick: what the test guards against is waiting for ever. (B once needed more than 5 s in a
        // full run, likely on a second connection the test used not to serve.)
        try (Response r = b.get(30, TimeUnit.SECONDS)) {
            assertThat(r.string()).isEqualTo("retried /b");
        }
        assertThat(traceB.retryCauses).singleElement().isNotInstanceOf(HttpTimeoutException.class);
        try {
            a.get(30, TimeUnit.SECONDS).close();
        } catch (ExecutionException e) {
            // A's HEADERS were in the failed write: it may fail or be retried; either way it ends
        }
        client.close();
        server.join(10_000);
    }

    private static void serveEveryRequest(H2Peer conn) {
        try {
            while (true) {
                H2Peer.ReceivedRequest request = conn.expectRequest();
                conn.respond(request.streamId(), 200, "retried " + request.fields().get(":path"));
            }
        } catch (IOException | AssertionError e) {
            // the client went away
        }
    }

    @Test
    void headersLargerThanTheWriteBufferReportTheirEndStreamWritten() throws Exception {
        // A block over the writer's 17 KiB buffer is written from an array of its own; its END_STREAM must still be
        // reported, or the caller waits in awaitEndWritten for ever.
        CompletableFuture<Response> call = client.sendAsync(Request.newBuilder(peer.url("/big-headers"))
                .header("x-big", "x".repeat(30_000)).build());
        H2Peer conn = peer.accept();
        H2Peer.ReceivedRequest request = conn.expectRequest();
        assertThat(request.endStream()).isTrue();
        conn.respond(request.streamId(), 200, "big");
        try (Response r = call.get(5, TimeUnit.SECONDS)) {
            assertThat(r.string()).isEqualTo("big");
        }
        ClientInternals.awaitSettled(client);
    }

    @Test
    void aParkedConnectionWhoseServerClosesItIsClosedNotWokenForEver() throws Exception {
        H2Peer conn = answerOneRequestAndAwaitParked();
        Http2Connection connection = onlyConnection();
        // The reader shares the channel with the writer, so its non-blocking read cannot see the end of the stream;
        // without a short blocking read to tell, the woken connection would park again and be woken again.
        assertThat(connection.transport.isSharedWithWriters()).isTrue();
        conn.close();
        Await.until("closed", () -> connection.ioState() == Http2Parking.Io.CLOSED && !connection.hasThreads());
        assertThat(connection.isHealthy()).isFalse();
    }
}
