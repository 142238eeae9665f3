package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.server.core.ServerContext;
import dev.shuttle.wire.http1.Http1Limits;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The documented defaults and the builders' validation. */
class ServerConfigTest {
    @Test
    void limitDefaultsAreTheDocumentedOnes() {
        ServerLimits limits = ServerLimits.defaults();
        assertThat(limits.maxRequestLineBytes()).isEqualTo(8 * 1024);
        assertThat(limits.maxHeadBytes()).isEqualTo(16 * 1024);
        assertThat(limits.maxHeaderCount()).isEqualTo(100);
        assertThat(limits.maxRequestBodyBytes()).isEqualTo(10L * 1024 * 1024);
        assertThat(limits.unreadBodyDiscardBytes()).isEqualTo(256 * 1024);
        assertThat(limits.maxConnections()).isZero();
        assertThat(ServerContext.http1Limits(limits)).isEqualTo(Http1Limits.serverDefaults());
        assertThat(limits.toBuilder().build()).isEqualTo(limits);
    }

    @Test
    void http2DefaultsAreTheDocumentedOnes() {
        Http2Options http2 = Http2Options.defaults();
        assertThat(http2.maxConcurrentStreams()).isEqualTo(128);
        assertThat(http2.maxStreamResets()).isEqualTo(200);
        assertThat(http2.resetWindow()).isEqualTo(Duration.ofSeconds(30));
        assertThat(http2.maxControlFramesPerSecond()).isEqualTo(200);
        assertThatThrownBy(() -> Http2Options.builder().maxStreamResets(0, Duration.ofSeconds(1)).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Http2Options.builder().maxControlFramesPerSecond(0).build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void timeoutDefaultsAreTheDocumentedOnes() {
        ServerTimeouts timeouts = ServerTimeouts.defaults();
        assertThat(timeouts.headerRead()).isEqualTo(Duration.ofSeconds(10));
        assertThat(timeouts.bodyRead()).isEqualTo(Duration.ofSeconds(30));
        assertThat(timeouts.idle()).isEqualTo(Duration.ofSeconds(60));
        assertThat(timeouts.write()).isEqualTo(Duration.ofSeconds(30));
        assertThat(timeouts.toBuilder().build()).isEqualTo(timeouts);
    }

    @Test
    void invalidValuesAreRefused() {
        assertThatThrownBy(() -> ServerLimits.builder().maxHeadBytes(0).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ServerLimits.builder().maxRequestBodyBytes(-1).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ServerTimeouts.builder().idle(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HttpServer.builder().port(70000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HttpServer.builder().build()).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("handler");
    }

    @Test
    void ephemeralPortIsReadable() throws Exception {
        try (HttpServer server = HttpServer.builder().handler((request, response) -> { }).start()) {
            assertThat(server.port()).isPositive();
            assertThat(server.localAddress().getAddress().isLoopbackAddress()).isTrue();
            assertThat(server.isRunning()).isTrue();
        }
    }

    @Test
    void connectionLimitHoldsNewConnectionsInTheBacklogUntilOneCloses() throws Exception {
        RecordingListener listener = new RecordingListener();
        try (HttpServer server = HttpServer.builder()
                .limits(ServerLimits.builder().maxConnections(1).build())
                .connectionListener(listener)
                .handler((request, response) -> response.send("ok"))
                .start();
             RawConnection second = new RawConnection(server)) {
            RawConnection first = new RawConnection(server);
            // The first connection the server accepted may be either socket; serve whichever it is.
            listener.awaitCount(ConnectionState.NEW, 1);
            long acceptedPort = listener.events().getFirst().connection().remoteAddress().getPort();
            RawConnection admitted = acceptedPort == first.socket().getLocalPort() ? first : second;
            RawConnection waiting = admitted == first ? second : first;
            assertThat(admitted.get("/").bodyText()).isEqualTo("ok");
            waiting.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(server.stats().accepted()).isEqualTo(1);
            admitted.close();
            assertThat(waiting.readResponse().bodyText()).isEqualTo("ok");
            assertThat(server.stats().accepted()).isEqualTo(2);
            first.close();
        }
    }
}
