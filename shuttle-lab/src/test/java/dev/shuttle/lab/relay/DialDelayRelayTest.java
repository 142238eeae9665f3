package dev.shuttle.lab.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DialDelayRelayTest {
    private ServerSocket target;
    /** Accept times (nanoTime) and sockets the target saw, handed over by the target's thread. */
    private final BlockingQueue<Long> acceptedAt = new ArrayBlockingQueue<>(16);
    private final BlockingQueue<Socket> acceptedSockets = new ArrayBlockingQueue<>(16);
    private Thread acceptor;

    @BeforeEach
    void startTarget() throws IOException {
        target = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofVirtual().start(() -> {
            while (!target.isClosed()) {
                try {
                    Socket s = target.accept();
                    acceptedAt.add(System.nanoTime());
                    acceptedSockets.add(s);
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    @AfterEach
    void stopTarget() throws IOException, InterruptedException {
        target.close();
        acceptor.join(2_000);
        for (Socket s : acceptedSockets) {
            s.close();
        }
    }

    private InetSocketAddress targetAddress() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), target.getLocalPort());
    }

    @Test
    void forwardsBothWaysAndCountsConnections() throws Exception {
        try (DialDelayRelay relay = new DialDelayRelay(targetAddress(), Duration.ZERO).start();
             Socket client = new Socket(InetAddress.getLoopbackAddress(), relay.port())) {
            client.getOutputStream().write("ping".getBytes(StandardCharsets.US_ASCII));
            Socket upstream = acceptedSockets.poll(5, TimeUnit.SECONDS);
            assertThat(upstream).isNotNull();
            assertThat(upstream.getInputStream().readNBytes(4)).asString(StandardCharsets.US_ASCII).isEqualTo("ping");
            upstream.getOutputStream().write("pong!".getBytes(StandardCharsets.US_ASCII));
            assertThat(client.getInputStream().readNBytes(5)).asString(StandardCharsets.US_ASCII)
                    .isEqualTo("pong!");
            assertThat(relay.connectionsAccepted()).isEqualTo(1);
            // the relay counts after its write returns, so the peer may read the bytes before they are counted
            waitFor(() -> relay.bytesToTarget() == 4);
            waitFor(() -> relay.bytesToClients() == 5);
        }
    }

    @Test
    void connectsUpstreamOnlyAfterTheDelay() throws Exception {
        Duration delay = Duration.ofMillis(40);
        try (DialDelayRelay relay = new DialDelayRelay(targetAddress(), delay).start()) {
            long connectedAt = System.nanoTime();
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), relay.port())) {
                Long upstreamAt = acceptedAt.poll(5, TimeUnit.SECONDS);
                assertThat(upstreamAt).isNotNull();
                // a lower bound only: the relay may be late on a busy machine, never early
                assertThat(upstreamAt - connectedAt).isGreaterThanOrEqualTo(delay.toNanos());
                assertThat(client.isConnected()).isTrue();
            }
        }
    }

    @Test
    void passesHalfClosesAndEndsThePair() throws Exception {
        try (DialDelayRelay relay = new DialDelayRelay(targetAddress(), Duration.ZERO).start();
             Socket client = new Socket(InetAddress.getLoopbackAddress(), relay.port())) {
            client.getOutputStream().write('x');
            client.shutdownOutput();
            Socket upstream = acceptedSockets.poll(5, TimeUnit.SECONDS);
            InputStream fromClient = upstream.getInputStream();
            assertThat(fromClient.read()).isEqualTo('x');
            assertThat(fromClient.read()).as("client's half-close reaches the target").isEqualTo(-1);
            OutputStream toClient = upstream.getOutputStream();
            toClient.write("late answer".getBytes(StandardCharsets.US_ASCII));
            upstream.close();
            assertThat(client.getInputStream().readAllBytes()).asString(StandardCharsets.US_ASCII)
                    .isEqualTo("late answer");
        }
    }

    @Test
    void closeEndsLiveConnections() throws Exception {
        DialDelayRelay relay = new DialDelayRelay(targetAddress(), Duration.ZERO).start();
        try (Socket client = new Socket(InetAddress.getLoopbackAddress(), relay.port())) {
            client.getOutputStream().write('x');
            Socket upstream = acceptedSockets.poll(5, TimeUnit.SECONDS);
            assertThat(upstream.getInputStream().read()).isEqualTo('x');
            relay.close();
            client.setSoTimeout(5_000);
            assertThat(readUntilEndOrReset(client.getInputStream())).isTrue();
            upstream.setSoTimeout(5_000);
            assertThat(readUntilEndOrReset(upstream.getInputStream())).isTrue();
        }
    }

    @Test
    void aDialClosedDuringTheDelayStillReachesTheTargetAndQuietWaitsForIt() throws Exception {
        Duration delay = Duration.ofMillis(100);
        try (DialDelayRelay relay = new DialDelayRelay(targetAddress(), delay).start()) {
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), relay.port())) {
                client.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
            } // closed while the relay still waits out the delay, as a client closed with a dial in flight does
            waitFor(() -> relay.inFlight() == 1);
            assertThat(acceptedSockets).as("nothing reached the target yet").isEmpty();
            Socket upstream = acceptedSockets.poll(5, TimeUnit.SECONDS);
            assertThat(upstream).as("the late connection reached the target").isNotNull();
            assertThat(relay.awaitQuiet(Duration.ofMillis(50))).as("relaying what the client sent").isFalse();
            upstream.getInputStream().readAllBytes(); // the target reads what came and closes, as a server would
            upstream.close();
            assertThat(relay.awaitQuiet(Duration.ofSeconds(5))).isTrue();
            assertThat(relay.inFlight()).isZero();
            assertThat(relay.bytesToTarget()).isEqualTo(5);
        }
    }

    @Test
    void quietWhenEveryPairHasEnded() throws Exception {
        try (DialDelayRelay relay = new DialDelayRelay(targetAddress(), Duration.ZERO).start()) {
            assertThat(relay.awaitQuiet(Duration.ofMillis(10))).as("nothing accepted yet").isTrue();
            Socket client = new Socket(InetAddress.getLoopbackAddress(), relay.port());
            Socket upstream = acceptedSockets.poll(5, TimeUnit.SECONDS);
            assertThat(relay.awaitQuiet(Duration.ofMillis(50))).as("a live pair").isFalse();
            client.close();
            upstream.close();
            assertThat(relay.awaitQuiet(Duration.ofSeconds(5))).isTrue();
        }
    }

    @Test
    void rejectsANegativeDelay() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> new DialDelayRelay(targetAddress(), Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static boolean readUntilEndOrReset(InputStream in) {
        try {
            return in.read() == -1;
        } catch (IOException e) {
            return true; // a reset also ends the connection
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 5 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
