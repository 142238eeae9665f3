package dev.shuttle.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.ConnectionInfo;
import dev.shuttle.server.ConnectionListener;
import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.GoAwayEvent;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import dev.shuttle.wire.testing.H2Peer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link ConnectionListener}'s rules on HTTP/2, where handlers, the reader and the shutting-down thread all write
 * under the session's locks: every call comes from a thread that holds none, and none from the server's shared
 * threads.
 */
class Http2ListenerRulesTest {
    private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.generate();

    /** Records each call, and each one that broke a rule. */
    private static final class Checking implements ConnectionListener {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final List<String> broken = new CopyOnWriteArrayList<>();
        final BlockingQueue<ConnectionState> states = new LinkedBlockingQueue<>();
        /** The one connection of the test. */
        volatile ConnectionInfo connection;

        @Override
        public void onStateChange(ConnectionInfo connection, ConnectionState from, ConnectionState to) {
            this.connection = connection;
            check(connection, from + "->" + to);
            states.add(to);
        }

        @Override
        public void onGoAway(ConnectionInfo connection, GoAwayEvent goAway) {
            check(connection, "GOAWAY " + goAway.reason());
        }

        private void check(ConnectionInfo connection, String call) {
            String thread = Thread.currentThread().getName();
            calls.add(call);
            if (((ServerConnection) connection).lockedByCurrentThread()) {
                broken.add(call + " under a lock of the connection, on " + thread);
            }
            if (thread.startsWith("shuttle-watcher") || thread.startsWith("shuttle-write-watchdog")) {
                broken.add(call + " on the shared thread " + thread);
            }
        }

        /** Waits until the connection's latest transition is into {@code wanted}. */
        void awaitState(ConnectionState wanted) throws InterruptedException {
            while (connection == null || connection.state() != wanted) {
                if (states.poll(10, TimeUnit.SECONDS) == null) {
                    throw new AssertionError("still " + connection.state() + " after 10 s; calls: " + calls);
                }
            }
        }
    }

    @Test
    void aGoodbyeToAParkedTlsConnectionTellsTheListenerOnlyOnceItsLockIsLetGo() throws Exception {
        // Shutdown's GOAWAY takes the parked channel back and parks it again, both under the goodbye's lock.
        Checking listener = new Checking();
        HttpServer server = HttpServer.builder().tls(CERTIFICATE.serverContext()).connectionListener(listener)
                .handler((request, response) -> response.send("ok")).start();
        CompletableFuture<Boolean> shutdown = new CompletableFuture<>();
        try (H2Peer client = H2Peer.dialTls(server.localAddress(), CERTIFICATE.clientContext())) {
            client.send(client.request(1, "/", true));
            assertThat(client.awaitStream(1).status()).isEqualTo(200);
            listener.awaitState(ConnectionState.PARKED); // the response is out: no transition is left to come

            Thread.ofVirtual().name("test-shutdown").start(() -> {
                try {
                    shutdown.complete(server.shutdown(Duration.ofSeconds(10)));
                } catch (Throwable t) {
                    shutdown.completeExceptionally(t);
                }
            });
            assertThat(client.awaitGoAway()).isNotNull();
        } // the client closes: the server's reader sees it and closes too
        assertThat(shutdown.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(listener.calls).contains("PARKED->IDLE", "GOAWAY shutdown");
        assertThat(listener.broken).isEmpty();
    }
}
