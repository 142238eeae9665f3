package dev.shuttle.server.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.ConnectionListener;
import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.ServerLimits;
import dev.shuttle.server.ServerTimeouts;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** White-box tests of the park gate: a connection left by its last writer always has an owner. */
class ParkGateTest {
    @Test
    void aWriterWhoseParkShutdownRefusesClosesTheConnectionItLeftWithoutAnOwner() throws Exception {
        // Staged: a writer (as an HTTP/2 handler over TLS) took the parked connection back and writes on while
        // shutdown refuses parks; closeIfIdle skips the connection for the writer's unfinished work; the writer then
        // ends, and its park is refused. Nobody else will close the connection: the writer must, or graceful shutdown
        // waits for it until its deadline.
        SelfSignedCertificate certificate = SelfSignedCertificate.generate();
        CountDownLatch parked = new CountDownLatch(1);
        CountDownLatch takenBack = new CountDownLatch(1);
        StagedWriter writer = new StagedWriter();
        ConnectionListener listener = (connection, from, to) -> {
            if (to == ConnectionState.PARKED) {
                parked.countDown();
            } else if (from == ConnectionState.PARKED && to == ConnectionState.IDLE) {
                takenBack.countDown();
            }
        };
        ServerEngine engine = new ServerEngine(new ServerEngine.Config((request, response) -> { },
                ServerLimits.defaults(), ServerTimeouts.defaults(), listener, true, certificate.serverContext()),
                writer);
        engine.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        try (Socket socket = certificate.clientContext().getSocketFactory()
                .createSocket("localhost", engine.localAddress().getPort())) {
            socket.getOutputStream().write('x'); // after the handshake: the session's one byte
            assertThat(parked.await(10, TimeUnit.SECONDS)).as("the reader parked").isTrue();
            Thread.ofVirtual().start(writer::write);
            assertThat(takenBack.await(10, TimeUnit.SECONDS)).as("the writer took the channel back").isTrue();

            assertThat(engine.shutdown(Duration.ofSeconds(5))).as("graceful, well before the deadline").isTrue();
            assertThat(writer.parkRefused).as("staged as planned").isTrue();
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
        } finally {
            engine.shutdown(Duration.ofSeconds(2));
        }
    }

    /**
     * A session whose one byte of request is answered by another thread, as HTTP/2 handlers answer: the reader goes
     * idle at once and parks. {@link #write} begins a write, waits until shutdown's {@code closeIfIdle} has been told
     * that it is under way (and so skipped the connection), then ends it.
     */
    private static final class StagedWriter implements SessionFactory, ProtocolSession {
        private final CountDownLatch closeIfIdleAsked = new CountDownLatch(1);
        private volatile ServerConnection connection;
        private volatile boolean writing;
        private volatile boolean parkRefused;

        @Override
        public ProtocolSession create(ServerConnection connection, String applicationProtocol) {
            this.connection = connection;
            return this;
        }

        @Override
        public String selectApplicationProtocol(List<String> offered) {
            return "";
        }

        @Override
        public boolean cleartextHttp2() {
            return false;
        }

        @Override
        public Next serve(long headDeadline) {
            ByteBuffer request = connection.input().buffer();
            request.position(request.limit());
            return connection.toIdle() ? Next.PARK : Next.CLOSE;
        }

        void write() {
            writing = true; // before the channel is taken back: the test shuts down as soon as it sees that
            try {
                connection.beginWrite();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            await(closeIfIdleAsked);
            parkRefused = !connection.context().watcher.isRunning();
            writing = false;
            connection.endWrite();
        }

        @Override
        public boolean hasUnfinishedWork() {
            boolean busy = writing;
            if (busy && !connection.context().watcher.isRunning()) {
                closeIfIdleAsked.countDown(); // shutdown's closeIfIdle, which skips the connection
            }
            return busy;
        }

        @Override
        public long idleTimeoutNanos() {
            return connection.context().idleNanos;
        }

        private static void await(CountDownLatch latch) {
            try {
                if (!latch.await(10, TimeUnit.SECONDS)) {
                    throw new AssertionError("stage not reached");
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
