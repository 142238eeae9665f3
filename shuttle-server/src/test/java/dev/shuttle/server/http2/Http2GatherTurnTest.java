package dev.shuttle.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.ConnectionListener;
import dev.shuttle.server.Http2Options;
import dev.shuttle.server.ServerLimits;
import dev.shuttle.server.ServerTimeouts;
import dev.shuttle.server.core.ProtocolSession;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.server.core.ServerEngine;
import dev.shuttle.server.core.SessionFactory;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.testing.H2Peer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A flusher whose frames end a stream while another handler of the connection runs gives it one turn before writing,
 * and what that handler encodes meanwhile leaves in the flusher's write ({@link Http2Writer}). The turn is staged:
 * it lets the other handler respond and waits until it returned, so no scheduling decides the outcome.
 */
@Timeout(60)
class Http2GatherTurnTest {
    private final AtomicInteger turns = new AtomicInteger();
    private final CountDownLatch secondStarted = new CountDownLatch(1);
    private final CountDownLatch secondMayRespond = new CountDownLatch(1);
    private final CountDownLatch secondReturned = new CountDownLatch(1);
    /** Whether the second handler's send returned while the first one's flusher was still in its turn. */
    private volatile boolean secondReturnedDuringTurn;
    private ServerEngine server;

    @AfterEach
    void stop() throws InterruptedException {
        secondMayRespond.countDown();
        if (server != null) {
            server.shutdown(Duration.ofSeconds(2));
        }
    }

    private void start() throws Exception {
        Runnable stagedTurn = () -> {
            turns.incrementAndGet();
            secondMayRespond.countDown();
            try {
                secondReturnedDuringTurn = secondReturned.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        SessionFactory http2Only = new SessionFactory() {
            @Override
            public ProtocolSession create(ServerConnection connection, String applicationProtocol) {
                return new Http2Session(connection, Http2Options.defaults(), stagedTurn);
            }

            @Override
            public String selectApplicationProtocol(List<String> offered) {
                return "";
            }

            @Override
            public boolean cleartextHttp2() {
                return true;
            }
        };
        server = new ServerEngine(new ServerEngine.Config((request, response) -> {
            if (request.path().equals("/second")) {
                secondStarted.countDown();
                secondMayRespond.await(10, TimeUnit.SECONDS);
                response.send("second");
                secondReturned.countDown();
            } else {
                if (request.path().equals("/first")) {
                    secondStarted.await(10, TimeUnit.SECONDS); // so the second handler runs when this one ends
                }
                response.send(request.path().substring(1));
            }
        }, ServerLimits.defaults(), ServerTimeouts.defaults(), ConnectionListener.NONE, true, null), http2Only);
        server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    }

    /** Reads until {@code count} streams have ended; each stream's body. */
    private static Map<Integer, String> readBodies(H2Peer client, int count) throws Exception {
        Map<Integer, String> bodies = new HashMap<>();
        int ended = 0;
        for (Http2Frame frame; ended < count && (frame = client.read()) != null; ) {
            if (frame instanceof DataFrame data) {
                bodies.merge(data.streamId(), StandardCharsets.UTF_8.decode(data.data()).toString(), String::concat);
                ended += data.endStream() ? 1 : 0;
            }
        }
        assertThat(ended).as("streams ended").isEqualTo(count);
        return bodies;
    }

    @Test
    void theResponseOfAnotherRunningHandlerLeavesInTheWriteOfTheStreamThatEndedFirst() throws Exception {
        start();
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/first", true), client.request(3, "/second", true));

            assertThat(readBodies(client, 2)).containsEntry(1, "first").containsEntry(3, "second");
            assertThat(turns).as("turns taken by the first stream's flusher").hasValue(1);
            assertThat(secondReturnedDuringTurn)
                    .as("the second handler returned, its response encoded, before the first flusher wrote").isTrue();
        }
    }

    @Test
    void aStreamEndingAloneTakesNoTurn() throws Exception {
        start();
        try (H2Peer client = H2Peer.dial(server.localAddress())) {
            client.send(client.request(1, "/alone", true));

            assertThat(readBodies(client, 1)).containsEntry(1, "alone");
            assertThat(turns).hasValue(0);
        }
    }
}
