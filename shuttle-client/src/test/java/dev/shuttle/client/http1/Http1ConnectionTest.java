package dev.shuttle.client.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.Origin;
import dev.shuttle.client.internal.ClientWatcher;
import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.ScriptedServer;
import dev.shuttle.transport.BufferPool;
import dev.shuttle.transport.PlainTransport;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.http1.Http1Limits;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The non-blocking health check that decides whether an idle connection may be reused, and watching while idle. */
class Http1ConnectionTest {
    private final BufferPool buffers = new BufferPool(4);

    @Test
    void aQuietConnectionIsHealthyAndAClosedOneIsNot() throws Exception {
        CountDownLatch closeNow = new CountDownLatch(1);
        try (ScriptedServer server = new ScriptedServer((conn, index) -> closeNow.await(5, TimeUnit.SECONDS))) {
            Http1Connection connection = connect(server);
            assertThat(connection.isHealthy()).isTrue();
            assertThat(connection.isHealthy()).as("the check consumes nothing").isTrue();
            closeNow.countDown();
            Await.until("server close noticed", () -> !connection.isHealthy());
            connection.close();
            assertThat(connection.isOpen()).isFalse();
        }
    }

    @Test
    void strayBytesMakeAnIdleConnectionUnhealthy() throws Exception {
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            conn.write("HTTP/1.1 200 OK\r\n\r\n"); // nobody asked
            conn.awaitClientClose();
        })) {
            Http1Connection connection = connect(server);
            Await.until("stray bytes noticed", () -> !connection.isHealthy());
            connection.close();
        }
    }

    @Test
    void goingIdleGivesTheReadBufferBackAndForgetsDeadlines() throws Exception {
        try (ScriptedServer server = new ScriptedServer((conn, index) -> conn.awaitClientClose())) {
            Http1Connection connection = connect(server);
            connection.source().buffer();
            connection.source().deadline(1, dev.shuttle.client.HttpTimeoutException.Kind.READ);
            int pooled = buffers.pooled();
            connection.onIdle();
            assertThat(buffers.pooled()).isEqualTo(pooled + 1);
            assertThat(connection.source().buffered()).isZero();
            connection.abort(new java.io.IOException("test"));
            assertThat(connection.isOpen()).isFalse();
            assertThat(connection.abortReason()).hasMessage("test");
        }
    }

    @Test
    void aWatchedConnectionWakesWhenTheServerClosesAndIsTakenBackOtherwise() throws Exception {
        CountDownLatch closeNow = new CountDownLatch(1);
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            if (index == 0) {
                closeNow.await(5, TimeUnit.SECONDS);
            } else {
                conn.awaitClientClose();
            }
        })) {
            Http1Connection closing = connect(server);
            CountDownLatch woke = new CountDownLatch(1);
            assertThat(closing.watch(woke::countDown)).isTrue();
            closeNow.countDown();
            assertThat(woke.await(10, TimeUnit.SECONDS)).as("the watcher noticed the close").isTrue();
            assertThat(closing.unwatch()).as("readiness came first").isFalse();
            assertThat(closing.isHealthy()).isFalse();
            closing.close();

            Http1Connection quiet = connect(server);
            assertThat(quiet.watch(() -> {
                throw new AssertionError("nothing arrived");
            })).isTrue();
            assertThat(quiet.unwatch()).isTrue();
            assertThat(quiet.isHealthy()).as("blocking and usable again").isTrue();
            quiet.close();
        }
    }

    @Test
    void aPlainRequestHeadIsEncodedOnceForItsMethodAndTarget() throws Exception {
        try (ScriptedServer server = new ScriptedServer((conn, index) -> conn.awaitClientClose())) {
            Http1Connection connection = connect(server);
            Headers fields = Headers.of("Host", "example.test", "User-Agent", "t");
            byte[] first = connection.plainHead("GET", "/a", fields);
            byte[] again = connection.plainHead("GET", "/a", fields);
            byte[] other = connection.plainHead("GET", "/b", fields);
            byte[] head = connection.plainHead("HEAD", "/b", fields);
            byte[] back = connection.plainHead("GET", "/a", fields);

            assertThat(again).isSameAs(first);
            assertThat(text(first)).isEqualTo("GET /a HTTP/1.1\r\nHost: example.test\r\nUser-Agent: t\r\n\r\n");
            assertThat(text(other)).startsWith("GET /b HTTP/1.1\r\n");
            assertThat(text(head)).startsWith("HEAD /b HTTP/1.1\r\n");
            assertThat(text(back)).isEqualTo(text(first));
            connection.close();
        }
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private Http1Connection connect(ScriptedServer server) throws Exception {
        Origin origin = Origin.of(server.uri("/"));
        SocketChannel channel = SocketChannel.open(new InetSocketAddress(origin.host(), origin.port()));
        return new Http1Connection(1, origin, new PlainTransport(channel, buffers, System::nanoTime), buffers,
                Http1Limits.clientDefaults(), ClientWatcher.shared(), System::nanoTime);
    }
}
