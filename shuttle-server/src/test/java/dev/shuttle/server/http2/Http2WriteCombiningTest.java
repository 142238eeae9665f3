package dev.shuttle.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.Http2Options;
import dev.shuttle.server.HttpServer;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2Settings;
import dev.shuttle.wire.http2.SettingsFrame;
import dev.shuttle.wire.http2.WindowUpdateFrame;
import dev.shuttle.wire.testing.H2Peer;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Frames encoded while another thread writes to the socket wait in one pending buffer and leave with the flusher's
 * next write ({@link Http2Writer}). Staged on a client that reads nothing, so the flusher of a large response is
 * blocked in the socket write for as long as the test needs: no timing decides the outcome.
 */
@Timeout(60)
class Http2WriteCombiningTest {
    /** More than loopback's socket buffers hold on both sides, so the large response's writer blocks. */
    private static final int LARGE = 32 << 20;
    private static final int MEDIUM = 64 * 1024;

    private final Map<String, Thread> handlers = new ConcurrentHashMap<>();
    private final CountDownLatch smallSent = new CountDownLatch(1);
    private final CountDownLatch mediumSent = new CountDownLatch(1);
    /** Holds the second stream's handler until the first one's write is blocked. */
    private final CountDownLatch secondMayWrite = new CountDownLatch(1);
    private HttpServer server;

    @AfterEach
    void stop() {
        secondMayWrite.countDown();
        if (server != null) {
            server.close();
        }
    }

    private void start() throws Exception {
        server = HttpServer.builder().http2(Http2Options.defaults()).handler((request, response) -> {
            handlers.put(request.path(), Thread.currentThread());
            if (!request.path().equals("/large")) {
                secondMayWrite.await(20, TimeUnit.SECONDS);
            }
            switch (request.path()) {
                case "/large" -> write(response.body(), LARGE);
                case "/medium" -> {
                    write(response.body(), MEDIUM);
                    mediumSent.countDown();
                }
                default -> {
                    response.send("small");
                    smallSent.countDown();
                }
            }
        }).start();
    }

    private static void write(OutputStream out, int length) throws IOException {
        byte[] block = new byte[16 * 1024];
        for (int sent = 0; sent < length; sent += block.length) {
            out.write(block);
        }
    }

    /**
     * A client that lets the server send everything at once, flow-control-wise, asks for {@code /large} and
     * {@code second} together (the server reads nothing from a connection whose only activity is a blocked write),
     * and reads nothing until the large response's write is blocked; then the second handler may write.
     */
    private H2Peer clientBlockingTheLargeResponse(String second) throws Exception {
        H2Peer client = H2Peer.dial(server.localAddress());
        client.send(SettingsFrame.of(List.of(new SettingsFrame.Setting(Http2Settings.INITIAL_WINDOW_SIZE,
                Integer.MAX_VALUE))), new WindowUpdateFrame(0, Integer.MAX_VALUE - 65_535),
                client.request(1, "/large", true), client.request(3, second, true));
        awaitStack("/large", frame -> frame.getClassName().startsWith("sun.nio.ch.")
                && frame.getMethodName().equals("park"), "parked in a socket write");
        secondMayWrite.countDown();
        return client;
    }

    /** Waits until {@code path}'s handler thread is parked with {@code where} on its stack. */
    private void awaitStack(String path, Predicate<StackTraceElement> where, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            Thread thread = handlers.get(path);
            if (thread != null && thread.getState() == Thread.State.WAITING
                    && Arrays.stream(thread.getStackTrace()).anyMatch(where)) {
                return;
            }
            Thread.sleep(10); // polling a state that, once reached, lasts until the client reads
        }
        throw new AssertionError(path + "'s handler never " + what);
    }

    /** Reads until streams 1 and 3 have ended; the DATA octets of each. */
    private static Map<Integer, Long> readBoth(H2Peer client) throws Exception {
        Map<Integer, Long> octets = new HashMap<>();
        int ended = 0;
        for (Http2Frame frame; ended < 2 && (frame = client.read()) != null; ) {
            if (frame instanceof DataFrame data) {
                octets.merge(data.streamId(), (long) data.data().remaining(), Long::sum);
                ended += data.endStream() ? 1 : 0;
            }
        }
        assertThat(ended).as("streams ended").isEqualTo(2);
        return octets;
    }

    @Test
    void aSmallResponseWaitsBehindABlockedWriteWithoutItsHandlerWaitingForTheSocket() throws Exception {
        start();
        try (H2Peer client = clientBlockingTheLargeResponse("/small")) {
            assertThat(smallSent.await(10, TimeUnit.SECONDS))
                    .as("the small response's handler returned while the large one's write was blocked").isTrue();

            Map<Integer, Long> octets = readBoth(client);
            assertThat(octets).containsEntry(1, (long) LARGE).containsEntry(3, 5L);
        }
    }

    @Test
    void aWriterWhoseFramesDoNotFitThePendingBufferWaitsForTheFlusher() throws Exception {
        start();
        try (H2Peer client = clientBlockingTheLargeResponse("/medium")) {
            awaitStack("/medium", frame -> frame.getClassName().endsWith("Http2Writer")
                    && frame.getMethodName().equals("roomLocked"), "waited for room in the pending buffer");
            assertThat(mediumSent.getCount()).as("the medium response's handler is still writing").isEqualTo(1);

            Map<Integer, Long> octets = readBoth(client);
            assertThat(octets).containsEntry(1, (long) LARGE).containsEntry(3, (long) MEDIUM);
            assertThat(mediumSent.await(10, TimeUnit.SECONDS)).isTrue();
        }
    }
}
