package dev.shuttle.client.http2;

import static dev.shuttle.client.testing.StagedHook.hold;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.ClientInternals;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Origin;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.ThreadDump;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.testing.H2Peer;
import dev.shuttle.wire.testing.H2PeerListener;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A reader that stops hands its {@link Http2Reader} (buffers and the list of streams to wake) to the next reader at
 * once, so the stopped thread must not touch that list again. Staged with the reader's stage hook: the old reader is
 * held just after it stopped, the new one in the middle of a batch of frames, and the old one, if it wakes streams
 * after stopping, between its signals and the end of that wake.
 */
class Http2ReaderHandOverTest {
    private final H2PeerListener peer;
    private HttpClient client;

    Http2ReaderHandOverTest() throws Exception {
        peer = new H2PeerListener();
    }

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        peer.close();
    }

    /** The hook's script: which reader is the old one, and where each thread is held. */
    private static final class Script {
        final AtomicReference<Thread> old = new AtomicReference<>();
        final AtomicInteger newReaderFrames = new AtomicInteger();
        final CountDownLatch oldStopped = new CountDownLatch(1);
        final CountDownLatch releaseOldStopped = new CountDownLatch(1);
        final CountDownLatch oldWoke = new CountDownLatch(1);
        final CountDownLatch releaseOldWoke = new CountDownLatch(1);
        final CountDownLatch newHeadHandled = new CountDownLatch(1);
        final CountDownLatch releaseNewHead = new CountDownLatch(1);
        final CountDownLatch newDataHandled = new CountDownLatch(1);
        final CountDownLatch releaseNewData = new CountDownLatch(1);

        void at(Http2Reader.Stage stage) {
            Thread thread = Thread.currentThread();
            switch (stage) {
                case FRAME_HANDLED -> {
                    if (old.compareAndSet(null, thread) || old.get() == thread) {
                        return; // the old reader, serving the first request
                    }
                    int frame = newReaderFrames.incrementAndGet();
                    if (frame == 1) {
                        hold(newHeadHandled, releaseNewHead);
                    } else if (frame == 2) {
                        hold(newDataHandled, releaseNewData);
                    }
                }
                case STOPPED -> {
                    if (old.get() == thread) {
                        hold(oldStopped, releaseOldStopped);
                    }
                }
                case WOKEN -> {
                    if (old.get() == thread && oldStopped.getCount() == 0) { // woke streams after it stopped
                        hold(oldWoke, releaseOldWoke);
                    }
                }
            }
        }
    }

    /** Callers waiting on the connection's streams with a deadline (every wait has one: the read timeout). */
    private static int waiting(Http2Connection connection) {
        connection.lock.lock();
        try {
            return connection.deadlines.waitingLocked();
        } finally {
            connection.lock.unlock();
        }
    }

    @Test
    void aReaderThatStoppedNeverLosesTheWakeUpOfAStreamItsSuccessorServes() throws Exception {
        client = HttpClient.builder().http2PriorKnowledge(true).readTimeout(Duration.ofSeconds(30)).build();
        CompletableFuture<Response> warmUp = client.sendAsync(Request.get(peer.url("/warm-up")));
        H2Peer conn = peer.accept();
        conn.respond(conn.expectRequest().streamId(), 200, "warm");
        try (Response r = warmUp.get(5, TimeUnit.SECONDS)) {
            assertThat(r.string()).isEqualTo("warm");
        }
        Http2Connection connection = (Http2Connection) ClientInternals.pool(client)
                .multiplexedConnections(Origin.of(URI.create(peer.url("/")))).getFirst();
        // Parked, and no reader thread left: the next reader to handle a frame is the one the script calls old.
        Await.until("parked, no reader thread", () -> connection.ioState() == Http2Parking.Io.PARKED
                && !connection.hasThreads()
                && !ThreadDump.named("shuttle-h2-reader-").contains("shuttle-h2-reader-" + connection.id()));
        Script script = new Script();
        connection.readerStageHook(script::at);

        // The old reader serves A, lingers, stops, and is held right after: the connection parked meanwhile.
        CompletableFuture<Response> a = client.sendAsync(Request.get(peer.url("/a")));
        conn.respond(conn.expectRequest().streamId(), 200, "a");
        try (Response r = a.get(5, TimeUnit.SECONDS)) {
            assertThat(r.string()).isEqualTo("a");
        }
        assertThat(script.oldStopped.await(5, TimeUnit.SECONDS)).isTrue();
        Thread old = script.old.get();

        // B takes the connection back with a new reader, held once it handled B's head (B marked to wake, not woken).
        CompletableFuture<Response> b = client.sendAsync(Request.get(peer.url("/b")));
        int streamB = conn.expectRequest().streamId();
        conn.sendHeadersAndData(streamB, 200, Headers.of("content-length", "10"),
                new DataFrame(streamB, ByteBuffer.wrap(new byte[5]), false));
        assertThat(script.newHeadHandled.await(5, TimeUnit.SECONDS)).isTrue();

        // The old reader goes on: it must end without waking anything (if it wakes B, it is held right after).
        script.releaseOldStopped.countDown();
        Await.until("the old reader ended or woke streams", () -> script.oldWoke.getCount() == 0 || !old.isAlive());
        // The new reader handles B's DATA (B marked again if the old one woke it), then is held again.
        script.releaseNewHead.countDown();
        assertThat(script.newDataHandled.await(5, TimeUnit.SECONDS)).isTrue();
        script.releaseOldWoke.countDown();
        old.join(5_000);
        assertThat(old.isAlive()).isFalse();
        script.releaseNewData.countDown();

        // The rest of B's body, sent once B's caller waits for it: the caller must be woken.
        try (Response response = b.get(5, TimeUnit.SECONDS)) {
            CompletableFuture<byte[]> body = CompletableFuture.supplyAsync(() -> {
                try {
                    return response.bytes();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            Await.until("B's caller waits for the rest of its body", () -> waiting(connection) == 1);
            conn.send(new DataFrame(streamB, ByteBuffer.wrap(new byte[5]), true));
            assertThat(body.get(5, TimeUnit.SECONDS)).as("B's body, its caller woken for the last DATA").hasSize(10);
        }
        connection.readerStageHook(null);
        ClientInternals.awaitSettled(client);
    }
}
