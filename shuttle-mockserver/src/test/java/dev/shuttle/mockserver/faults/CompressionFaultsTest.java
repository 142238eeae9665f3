package dev.shuttle.mockserver.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.BodyHandler;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.client.ResponseLimits;
import dev.shuttle.mockserver.MockResponse;
import dev.shuttle.mockserver.MockServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Compressed bodies a server gets wrong, and decompression bombs: clear errors, bounded memory. */
@Timeout(60)
class CompressionFaultsTest {
    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    private static MockResponse gzipped(byte[] body) {
        return MockResponse.builder().header("Content-Encoding", "gzip").body(body).build();
    }

    @Test
    void aBodyThatIsNotGzipFailsSayingSo() throws Exception {
        try (MockServer server = MockServer.builder()
                .respondWith(gzipped("plain text, not gzip".getBytes(StandardCharsets.US_ASCII))).start();
             HttpClient client = HttpClient.create()) {
            assertThatThrownBy(() -> client.send(Request.get(server.url("/")), BodyHandler.ofString()))
                    .isInstanceOf(IOException.class).hasMessageContaining("invalid gzip response body");
        }
    }

    @Test
    void aTruncatedGzipStreamFailsInsteadOfReadingShort() throws Exception {
        byte[] whole = gzip("some text that will not arrive whole\n".repeat(100).getBytes(StandardCharsets.UTF_8));
        byte[] cut = Arrays.copyOf(whole, whole.length / 2);
        try (MockServer server = MockServer.builder().respondWith(gzipped(cut)).start();
             HttpClient client = HttpClient.create()) {
            assertThatThrownBy(() -> client.send(Request.get(server.url("/")), BodyHandler.ofString()))
                    .isInstanceOf(IOException.class).hasMessageContaining("truncated gzip response body");
        }
    }

    @Test
    void aConnectionCutMidGzipFailsAsAnyCutBody() throws Exception {
        byte[] whole = gzip(new byte[100_000]);
        try (MockServer server = MockServer.builder().respondWith(MockResponse.builder()
                .header("Content-Encoding", "gzip").body(whole).truncateAfter(whole.length / 2).build()).start();
             HttpClient client = HttpClient.create()) {
            assertThatThrownBy(() -> client.send(Request.get(server.url("/")), BodyHandler.ofBytes()))
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void aDecompressionBombStopsAtTheRatio() throws Exception {
        byte[] bomb = gzip(new byte[64 * 1024 * 1024]); // 64 MiB of zeros in about 64 KiB
        try (MockServer server = MockServer.builder().respondWith(gzipped(bomb)).start();
             HttpClient client = HttpClient.create()) {
            assertThatThrownBy(() -> client.send(Request.get(server.url("/")), BodyHandler.ofBytes()))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("ResponseLimits.maxDecompressionRatio (100)");
        }
    }

    @Test
    void theAbsoluteCapHoldsWhateverTheRatio() throws Exception {
        byte[] text = "ordinary text compresses a few times only, ".repeat(10_000).getBytes(StandardCharsets.UTF_8);
        try (MockServer server = MockServer.builder().respondWith(gzipped(gzip(text))).start();
             HttpClient client = HttpClient.builder()
                     .responseLimits(ResponseLimits.defaults().withDecompression(100_000, 1000)).build()) {
            assertThatThrownBy(() -> client.send(Request.get(server.url("/")), BodyHandler.ofBytes()))
                    .hasMessageContaining("ResponseLimits.maxDecodedBytes (100000 bytes)");
        }
        try (MockServer server = MockServer.builder().respondWith(gzipped(gzip(text))).start();
             HttpClient client = HttpClient.create()) {
            try (Response response = client.send(Request.get(server.url("/")))) {
                assertThat(response.bytes()).isEqualTo(text);
            }
        }
    }
}
