package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The design's central claim (DESIGN.md section 2): an idle keep-alive connection holds no thread. 1 000 connections
 * each make a request and go idle; they must all be PARKED, and neither platform nor virtual threads may have grown
 * with them. Then each serves another request. A second test turns parking off and sees one virtual thread per idle
 * connection, which shows the census would catch a regression.
 */
class IdleConnectionsTest {
    private static final int CONNECTIONS = 1000;
    /** Slack for threads the JDK may start on its own (a carrier, a poller); far below one per connection. */
    private static final int SLACK = 10;

    private static HttpServer start(boolean parking, RecordingListener listener) throws Exception {
        return HttpServer.builder()
                .parking(parking)
                .connectionListener(listener)
                .handler((request, response) -> response.send("conn " + request.path().substring(1)))
                .start();
    }

    /**
     * Waits for the PARKED gauge rather than for PARKED events: a connection may park once before its first request
     * arrives and again after it, so the event count can reach N while the last connection is still active.
     */
    private static void awaitParked(HttpServer server, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (server.stats().parked() != expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(server.stats().parked()).isEqualTo(expected);
    }

    @Test
    void thousandIdleConnectionsAreParkedWithoutThreads() throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        RecordingListener listener = new RecordingListener();
        List<RawConnection> connections = new ArrayList<>(CONNECTIONS);
        try (HttpServer server = start(true, listener)) {
            // Warm up: the first virtual-thread socket I/O starts the JDK's carrier and poller threads.
            try (RawConnection warmUp = new RawConnection(server)) {
                assertThat(warmUp.get("/warm").status()).isEqualTo(200);
            }
            listener.awaitCount(ConnectionState.CLOSED, 1);
            ThreadCensus before = ThreadCensus.take();
            int platformBefore = threads.getThreadCount();

            try {
                for (int i = 0; i < CONNECTIONS; i++) {
                    RawConnection connection = new RawConnection(server);
                    connections.add(connection);
                    assertThat(connection.get("/" + i).bodyText()).isEqualTo("conn " + i);
                }
                awaitParked(server, CONNECTIONS);
                ServerStats stats = server.stats();
                assertThat(stats.parked()).isEqualTo(CONNECTIONS);
                assertThat(stats.open()).isEqualTo(CONNECTIONS);
                assertThat(stats.active() + stats.idle()).isZero();

                // The thread that parked the last connection counts it as parked just before it ends: give it (and
                // any other still on its way out) a moment. One that stays is a connection holding a thread.
                ThreadCensus during = ThreadCensus.take();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (during.shuttleConnectionThreads() > 0 && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                    during = ThreadCensus.take();
                }
                System.out.printf("%d parked connections: threads before %s, with them parked %s%n",
                        CONNECTIONS, before, during);
                assertThat(during.shuttleConnectionThreads()).isZero();
                assertThat(during.virtual()).isLessThanOrEqualTo(before.virtual() + SLACK);
                assertThat(during.platform()).isLessThanOrEqualTo(before.platform() + SLACK);
                assertThat(threads.getThreadCount()).isLessThanOrEqualTo(platformBefore + SLACK);

                // Every parked connection wakes up and serves correctly.
                for (int i = 0; i < CONNECTIONS; i++) {
                    assertThat(connections.get(i).get("/" + (i + CONNECTIONS)).bodyText())
                            .isEqualTo("conn " + (i + CONNECTIONS));
                }
                awaitParked(server, CONNECTIONS);
                assertThat(server.stats().accepted()).isEqualTo(CONNECTIONS + 1);
            } finally {
                for (RawConnection connection : connections) {
                    connection.close();
                }
            }
            listener.awaitCount(ConnectionState.CLOSED, CONNECTIONS + 1);
            assertThat(server.stats().open()).isZero();
        }
    }

    @Test
    void withoutParkingEachIdleConnectionHoldsAVirtualThread() throws Exception {
        int connectionsCount = 200;
        RecordingListener listener = new RecordingListener();
        List<RawConnection> connections = new ArrayList<>(connectionsCount);
        try (HttpServer server = start(false, listener)) {
            try {
                for (int i = 0; i < connectionsCount; i++) {
                    RawConnection connection = new RawConnection(server);
                    connections.add(connection);
                    connection.get("/" + i);
                }
                listener.awaitCount(ConnectionState.IDLE, connectionsCount);
                assertThat(server.stats().idle()).isEqualTo(connectionsCount);
                assertThat(ThreadCensus.take().shuttleConnectionThreads()).isEqualTo(connectionsCount);
            } finally {
                for (RawConnection connection : connections) {
                    connection.close();
                }
            }
        }
    }
}
