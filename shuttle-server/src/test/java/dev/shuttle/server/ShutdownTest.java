package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.server.RawConnection.RawResponse;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Graceful shutdown: stop accepting, close idle connections, let active requests finish, then cut off the rest. */
class ShutdownTest {
    /** Each shutdown waits on a thread of its own: the common pool has a single worker on two cores. */
    private static final java.util.concurrent.Executor OWN_THREAD = task -> Thread.ofVirtual().start(task);

    private final CountDownLatch slowEntered = new CountDownLatch(1);
    private final CountDownLatch releaseSlow = new CountDownLatch(1);
    private final RecordingListener listener = new RecordingListener();

    private static CompletableFuture<Boolean> shutdownOnItsOwnThread(HttpServer server, Duration deadline) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return server.shutdown(deadline);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, OWN_THREAD);
    }

    private HttpServer start(boolean parking) throws IOException {
        return HttpServer.builder()
                .parking(parking)
                .connectionListener(listener)
                .handler((request, response) -> {
                    if (request.path().equals("/slow")) {
                        slowEntered.countDown();
                        releaseSlow.await();
                        response.send("slow done");
                    } else {
                        response.send("fast");
                    }
                })
                .start();
    }

    @Test
    void activeRequestFinishesWhileIdleConnectionsCloseAndNewOnesAreRefused() throws Exception {
        shutdownScenario(true);
    }

    @Test
    void withoutParkingIdleConnectionsAreClosedToo() throws Exception {
        shutdownScenario(false);
    }

    private void shutdownScenario(boolean parking) throws Exception {
        HttpServer server = start(parking);
        InetSocketAddress address = server.localAddress();
        try (RawConnection idle = new RawConnection(server);
             RawConnection active = new RawConnection(server)) {
            assertThat(idle.get("/fast").bodyText()).isEqualTo("fast");
            listener.awaitCount(parking ? ConnectionState.PARKED : ConnectionState.IDLE, 1);
            active.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(slowEntered.await(10, TimeUnit.SECONDS)).isTrue();

            CompletableFuture<Boolean> shutdown = shutdownOnItsOwnThread(server, Duration.ofSeconds(30));

            assertThat(idle.readToEnd()).isEmpty(); // closed by the shutdown, without a response
            assertThatThrownBy(() -> {
                try (Socket socket = new Socket()) {
                    socket.connect(address, 5000);
                }
            }).isInstanceOf(ConnectException.class);
            assertThat(shutdown).isNotDone();

            releaseSlow.countDown();
            RawResponse response = active.readResponse();
            assertThat(response.bodyText()).isEqualTo("slow done");
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(active.isClosedByServer()).isTrue();
            assertThat(shutdown.get(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(server.stats().open()).isZero();
        assertThat(server.isRunning()).isFalse();
    }

    @Test
    void requestStillRunningAtTheDeadlineIsCutOff() throws Exception {
        HttpServer server = start(true);
        try (RawConnection active = new RawConnection(server)) {
            active.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(slowEntered.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(server.shutdown(Duration.ofMillis(100))).isFalse();
            assertThat(active.isClosedByServer()).isTrue();
            assertThat(server.stats().open()).isZero();
        } finally {
            releaseSlow.countDown();
        }
    }

    @Test
    void aSecondShutdownWhileTheFirstDrainsWaitsForItInsteadOfClaimingSuccess() throws Exception {
        // Issue 13, item 6: the second call used to return true at once and mark the server terminated.
        HttpServer server = start(true);
        try (RawConnection active = new RawConnection(server)) {
            active.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(slowEntered.await(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Boolean> first = shutdownOnItsOwnThread(server, Duration.ofSeconds(30));
            listener.await("the listener socket closed", events -> !server.isRunning());
            assertThat(server.shutdown(Duration.ofMillis(50))).as("its own deadline came first").isFalse();
            assertThat(first).isNotDone();
            CompletableFuture<Boolean> second = shutdownOnItsOwnThread(server, Duration.ofSeconds(30));
            releaseSlow.countDown();
            assertThat(active.readResponse().bodyText()).isEqualTo("slow done");
            assertThat(first.get(10, TimeUnit.SECONDS)).isTrue();
            assertThat(second.get(10, TimeUnit.SECONDS)).as("the first's result").isTrue();
            assertThat(server.shutdown(Duration.ofMillis(1))).isTrue();
        } finally {
            releaseSlow.countDown();
        }
    }

    @Test
    void anInterruptedShutdownLeavesTheDrainToTheNextCall() throws Exception {
        HttpServer server = start(true);
        try (RawConnection active = new RawConnection(server)) {
            active.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(slowEntered.await(10, TimeUnit.SECONDS)).isTrue();
            Thread.currentThread().interrupt(); // the drain's first wait throws at once
            assertThatThrownBy(() -> server.shutdown(Duration.ofSeconds(30))).isInstanceOf(InterruptedException.class);
            assertThat(server.isRunning()).isFalse();
            assertThat(server.stats().open()).as("the active request was not cut off").isOne();
            releaseSlow.countDown();
            assertThat(active.readResponse().bodyText()).isEqualTo("slow done");
            assertThat(server.shutdown(Duration.ofSeconds(30))).as("the next call drained to the end").isTrue();
            assertThat(server.stats().open()).isZero();
        } finally {
            releaseSlow.countDown();
        }
    }

    @Test
    void aShutdownWaitingForAnotherTakesTheDrainOverWhenThatOneIsInterrupted() throws Exception {
        HttpServer server = start(true);
        try (RawConnection idle = new RawConnection(server);
             RawConnection active = new RawConnection(server)) {
            assertThat(idle.get("/fast").bodyText()).isEqualTo("fast");
            listener.awaitCount(ConnectionState.PARKED, 1);
            active.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(slowEntered.await(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Throwable> first = new CompletableFuture<>();
            Thread drainer = Thread.ofVirtual().start(() -> {
                try {
                    server.shutdown(Duration.ofSeconds(30));
                    first.complete(null);
                } catch (Throwable t) {
                    first.complete(t);
                }
            });
            listener.awaitCount(ConnectionState.CLOSED, 1); // the idle one: the first shutdown is draining
            CompletableFuture<Boolean> second = shutdownOnItsOwnThread(server, Duration.ofSeconds(30));
            drainer.interrupt();
            assertThat(first.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
            releaseSlow.countDown();
            assertThat(active.readResponse().bodyText()).isEqualTo("slow done");
            assertThat(second.get(10, TimeUnit.SECONDS)).as("the second drained to the end").isTrue();
            assertThat(server.stats().open()).isZero();
        } finally {
            releaseSlow.countDown();
        }
    }

    @Test
    void shutdownIsIdempotentAndAServerRunsOnce() throws Exception {
        HttpServer server = start(true);
        assertThat(server.shutdown(Duration.ofSeconds(1))).isTrue();
        assertThat(server.shutdown(Duration.ofSeconds(1))).isTrue();
        server.close();
        assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void unstartedServerClosesQuietly() {
        HttpServer server = HttpServer.builder().handler((request, response) -> { }).build();
        server.close();
        assertThatThrownBy(server::port).isInstanceOf(IllegalStateException.class);
    }
}
