package dev.shuttle.client.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.Origin;
import dev.shuttle.client.internal.BufferPool;
import dev.shuttle.client.internal.Deadline;
import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.ScriptedServer;
import dev.shuttle.wire.http1.Http1Limits;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The non-blocking health check that decides whether an idle connection may be reused. */
class Http1ConnectionTest {
    private final BufferPool buffers = new BufferPool(16 * 1024, 4);
    private final Http1Dialer dialer = new Http1Dialer(Duration.ofSeconds(5), buffers, Http1Limits.clientDefaults(),
            System::nanoTime);

    @Test
    void aQuietConnectionIsHealthyAndAClosedOneIsNot() throws Exception {
        CountDownLatch closeNow = new CountDownLatch(1);
        try (ScriptedServer server = new ScriptedServer((conn, index) -> closeNow.await(5, TimeUnit.SECONDS))) {
            Http1Connection connection = dial(server);
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
            Http1Connection connection = dial(server);
            Await.until("stray bytes noticed", () -> !connection.isHealthy());
            connection.close();
        }
    }

    @Test
    void goingIdleGivesTheReadBufferBackAndForgetsDeadlines() throws Exception {
        try (ScriptedServer server = new ScriptedServer((conn, index) -> conn.awaitClientClose())) {
            Http1Connection connection = dial(server);
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

    private Http1Connection dial(ScriptedServer server) throws Exception {
        return (Http1Connection) dialer.dial(Origin.of(server.uri("/")), Deadline.NONE, ClientTrace.NONE);
    }
}
