package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.FixtureServer;
import dev.shuttle.client.testing.RecordingTrace;
import dev.shuttle.client.testing.ScriptedServer;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Bodies that end wrongly fail loudly, and their connection is never reused. */
class BodyErrorsTest {
    @Test
    void truncatedContentLengthBodyIsAnIOExceptionNeverAShortRead() throws Exception {
        try (FixtureServer server = new FixtureServer(); HttpClient client = HttpClient.create()) {
            try (Response response = client.send(Request.get(server.uri("/short/10000")))) {
                assertThat(response.status()).isEqualTo(200);
                assertThatThrownBy(() -> response.body().readAllBytes()).isInstanceOf(IOException.class)
                        .hasMessageContaining("truncated");
            }
            assertThatThrownBy(() -> client.send(Request.get(server.uri("/short/10000"))).bytes())
                    .isInstanceOf(IOException.class);
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
        }
    }

    @Test
    void truncatedBodyClosedUnreadIsAbandonedNotReused() throws Exception {
        RecordingTrace trace = new RecordingTrace();
        try (FixtureServer server = new FixtureServer();
             HttpClient client = HttpClient.builder().trace(trace).build()) {
            client.send(Request.get(server.uri("/short/10000"))).close();
            ClientInternals.awaitSettled(client);
            Await.until("outcome reported", () -> trace.closed.size() == 1);
            assertThat(trace.closed.get(0).outcome()).isEqualTo(DrainOutcome.ABANDONED_ERROR);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
        }
    }

    @Test
    void malformedChunkedBodyIsAnError() throws Exception {
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            conn.readRequest();
            conn.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n");
            conn.awaitClientClose();
        }); HttpClient client = HttpClient.create()) {
            try (Response response = client.send(Request.get(server.uri("/")))) {
                assertThatThrownBy(() -> response.body().readAllBytes()).isInstanceOf(IOException.class)
                        .hasMessageContaining("chunk size");
            }
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
        }
    }

    @Test
    void malformedResponseHeadIsAnError() throws Exception {
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            conn.readRequest();
            conn.write("HTTP/1.1 200 OK\r\nContent-Length: 12, 13\r\n\r\nhello world!");
            conn.awaitClientClose();
        }); HttpClient client = HttpClient.create()) {
            assertThatThrownBy(() -> client.send(Request.get(server.uri("/")))).isInstanceOf(IOException.class);
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
        }
    }

    @Test
    void bytesAfterTheEndOfABodyKeepTheConnectionOutOfThePool() throws Exception {
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            while (conn.readRequest() != null) {
                conn.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokGARBAGE");
            }
        }); HttpClient client = HttpClient.create()) {
            for (int i = 0; i < 3; i++) {
                try (Response response = client.send(Request.get(server.uri("/")))) {
                    assertThat(response.string()).isEqualTo("ok");
                }
            }
            assertThat(server.accepted()).isEqualTo(3);
            for (int i = 0; i < 3; i++) {
                client.send(Request.get(server.uri("/"))).close(); // drained, then found followed by garbage
            }
            ClientInternals.awaitSettled(client);
            assertThat(server.accepted()).isEqualTo(6);
            Await.until("outcomes counted", () -> client.stats().drains(DrainOutcome.ABANDONED_ERROR) == 3);
        }
    }

    @Test
    void closeDelimitedBodyIsReadToTheCloseAndNeverReused() throws Exception {
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            conn.readRequest();
            conn.write("HTTP/1.1 200 OK\r\n\r\nuntil the end");
        }); HttpClient client = HttpClient.create()) {
            for (int i = 0; i < 2; i++) {
                try (Response response = client.send(Request.get(server.uri("/")))) {
                    assertThat(response.string()).isEqualTo("until the end");
                }
            }
            assertThat(server.accepted()).isEqualTo(2);
        }
    }
}
