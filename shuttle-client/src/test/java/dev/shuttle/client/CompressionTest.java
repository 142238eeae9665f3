package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.RecordingTrace;
import dev.shuttle.server.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Transparent gzip and deflate against Shuttle's server (which compresses nothing itself: the handler does), over
 * HTTP/1.1 and h2c: decoded as read, fields removed, the caller's own Accept-Encoding respected, and an unread
 * compressed body drained compressed, keeping its connection.
 */
class CompressionTest {
    static final String TEXT = "the quick brown fox jumps over the lazy dog\n".repeat(400);

    private HttpServer server;
    private final List<String> acceptEncodings = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.builder().port(0).handler((request, response) -> {
            acceptEncodings.add(String.valueOf(request.header("Accept-Encoding")));
            byte[] text = TEXT.getBytes(StandardCharsets.UTF_8);
            switch (request.path()) {
                case "/gzip" -> response.header("Content-Encoding", "gzip").send(gzip(text));
                case "/gzip-chunked" -> {
                    response.header("Content-Encoding", "gzip");
                    response.flush();
                    response.body().write(gzip(text));
                }
                case "/zlib" -> response.header("Content-Encoding", "deflate").send(deflate(text, false));
                case "/raw-deflate" -> response.header("Content-Encoding", "deflate").send(deflate(text, true));
                case "/br" -> response.header("Content-Encoding", "br").send(new byte[] {1, 2, 3});
                case "/big-gzip" -> response.header("Content-Encoding", "gzip")
                        .send(gzip(TEXT.repeat(40).getBytes(StandardCharsets.UTF_8)));
                default -> response.send(text);
            }
        }).start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    static byte[] deflate(byte[] data, boolean raw) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream z = new DeflaterOutputStream(out, new Deflater(Deflater.DEFAULT_COMPRESSION, raw))) {
            z.write(data);
        }
        return out.toByteArray();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/gzip", "/gzip-chunked", "/zlib", "/raw-deflate"})
    void compressedBodiesAreDecodedAndTheirFieldsRemoved(String path) throws Exception {
        for (boolean h2 : new boolean[] {false, true}) {
            try (HttpClient client = HttpClient.builder().http2PriorKnowledge(h2).build();
                 Response response = client.send(Request.get(uri(path)))) {
                assertThat(response.header("Content-Encoding")).isNull();
                assertThat(response.header("Content-Length")).isNull();
                assertThat(response.decodedEncoding()).isEqualTo(path.contains("gzip") ? "gzip" : "deflate");
                assertThat(response.string()).isEqualTo(TEXT);
            }
        }
        assertThat(acceptEncodings).containsOnly("gzip, deflate");
    }

    @Test
    void theCallersOwnAcceptEncodingGetsTheBodyAsItCame() throws Exception {
        try (HttpClient client = HttpClient.create()) {
            Request mine = Request.newBuilder(uri("/gzip")).header("Accept-Encoding", "gzip").build();
            try (Response response = client.send(mine)) {
                assertThat(response.header("Content-Encoding")).isEqualTo("gzip");
                assertThat(response.decodedEncoding()).isNull();
                assertThat(response.bytes()).isEqualTo(gzip(TEXT.getBytes(StandardCharsets.UTF_8)));
            }
            try (Response unknown = client.send(Request.get(uri("/br")))) {
                assertThat(unknown.header("Content-Encoding")).isEqualTo("br");
                assertThat(unknown.bytes()).containsExactly(1, 2, 3);
            }
            client.send(Request.newBuilder(uri("/plain")).HEAD().build()).close();
            client.send(Request.newBuilder(uri("/plain")).header("Range", "bytes=0-9").build()).close();
        }
        assertThat(acceptEncodings).containsExactly("gzip", "gzip, deflate", "null", "null");
        try (HttpClient off = HttpClient.builder().compression(false).build()) {
            off.send(Request.get(uri("/plain"))).close();
        }
        assertThat(acceptEncodings).last().isEqualTo("null");
    }

    @Test
    void anUnreadCompressedBodyIsDrainedCompressedAndKeepsTheConnection() throws Exception {
        RecordingTrace trace = new RecordingTrace();
        long compressedSize = gzip(TEXT.repeat(40).getBytes(StandardCharsets.UTF_8)).length;
        try (HttpClient client = HttpClient.builder().trace(trace).build()) {
            for (int i = 0; i < 5; i++) {
                try (Response response = client.send(Request.get(uri("/big-gzip")))) {
                    assertThat(response.status()).isEqualTo(200); // closed unread
                }
            }
            Await.until("every body's verdict", () -> trace.closed.size() == 5);
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        }
        assertThat(trace.closed).allSatisfy(closed -> {
            assertThat(closed.outcome().reused()).isTrue();
            assertThat(closed.bytesRead() + closed.bytesDiscarded()).isEqualTo(compressedSize);
        });
    }

    @Test
    void aPartlyReadCompressedBodyKeepsTheConnectionToo() throws Exception {
        try (HttpClient client = HttpClient.create()) {
            for (int i = 0; i < 3; i++) {
                try (Response response = client.send(Request.get(uri("/big-gzip")))) {
                    byte[] start = response.body().readNBytes(100);
                    assertThat(new String(start, StandardCharsets.UTF_8)).startsWith("the quick brown fox");
                }
            }
            CompletedResponse<String> whole = client.send(Request.get(uri("/gzip-chunked")), BodyHandler.ofString());
            assertThat(whole.body()).isEqualTo(TEXT);
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        }
    }
}
