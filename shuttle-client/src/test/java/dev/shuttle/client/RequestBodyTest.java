package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.testing.FixtureServer;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Request bodies of every kind reach the server intact, with the right framing, over one connection. */
class RequestBodyTest {
    @Test
    void everyPublisherArrivesIntact(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("body.txt");
        Files.writeString(file, "from a file");
        byte[] large = new byte[200_000];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) i;
        }
        try (FixtureServer server = new FixtureServer(); HttpClient client = HttpClient.create()) {
            assertThat(echo(client, server, "POST", BodyPublisher.ofString("héllo"))).isEqualTo("héllo".getBytes(
                    StandardCharsets.UTF_8));
            assertThat(echo(client, server, "PUT", BodyPublisher.ofBytes(large))).isEqualTo(large);
            assertThat(echo(client, server, "POST", BodyPublisher.ofStream(() -> new ByteArrayInputStream(large))))
                    .isEqualTo(large);
            assertThat(echo(client, server, "POST", BodyPublisher.ofStream(() -> new ByteArrayInputStream(large),
                    large.length))).isEqualTo(large);
            assertThat(new String(echo(client, server, "POST", BodyPublisher.ofFile(file)), StandardCharsets.UTF_8))
                    .isEqualTo("from a file");
            assertThat(echo(client, server, "POST", BodyPublisher.none())).isEmpty();
            assertThat(echo(client, server, "PATCH", BodyPublisher.ofString(""))).isEmpty();
            assertThat(server.newConnections()).isEqualTo(1);
        }
    }

    private static byte[] echo(HttpClient client, FixtureServer server, String method, BodyPublisher body)
            throws Exception {
        Request request = Request.newBuilder(server.uri("/echo")).method(method, body).build();
        try (Response response = client.send(request)) {
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("X-Method")).isEqualTo(method);
            return response.bytes();
        }
    }

    @Test
    void headAndNoContentResponsesHaveNoBodyAndFreeTheConnectionAtOnce() throws Exception {
        try (FixtureServer server = new FixtureServer(); HttpClient client = HttpClient.create()) {
            Response head = client.send(Request.newBuilder(server.uri("/cl/5000")).HEAD().build());
            assertThat(head.header("Content-Length")).isEqualTo("5000");
            assertThat(ClientInternals.pool(client).idleCount()).as("released before close").isEqualTo(1);
            assertThat(head.bytes()).isEmpty();
            try (Response empty = client.send(Request.get(server.uri("/status/204")))) {
                assertThat(empty.status()).isEqualTo(204);
                assertThat(empty.body().read()).isEqualTo(-1);
                assertThat(empty.trailers().isEmpty()).isTrue();
            }
            assertThat(server.newConnections()).isEqualTo(1);
        }
    }

    @Test
    void bytesRefusesABodyLargerThanTheLimit() throws Exception {
        try (FixtureServer server = new FixtureServer(); HttpClient client = HttpClient.create()) {
            Response declared = client.send(Request.get(server.uri("/cl/5000")));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> declared.bytes(100))
                    .hasMessageContaining("exceeds");
            Response chunked = client.send(Request.get(server.uri("/chunked/5000")));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> chunked.bytes(100))
                    .hasMessageContaining("exceeds");
            ClientInternals.awaitSettled(client);
        }
    }

    @Test
    void keepAliveOffSendsConnectionCloseAndNeverReuses() throws Exception {
        try (FixtureServer server = new FixtureServer();
             HttpClient client = HttpClient.builder().keepAlive(false).build()) {
            for (int i = 0; i < 3; i++) {
                try (Response response = client.send(Request.get(server.uri("/cl/10")))) {
                    assertThat(response.string()).hasSize(10);
                }
            }
            assertThat(server.newConnections()).isEqualTo(3);
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
        }
    }
}
