package dev.shuttle.server.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.ConnectionInfo;
import dev.shuttle.server.ExternalProcess;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A few MiB served to real clients: zero-copy on plaintext HTTP/1.1 (the transport counts the bytes transferTo sent),
 * chunks over TLS and HTTP/2, resumption with Range (curl -C), conditional GET (curl -z), Python's http.client.
 */
class FileServingClientsTest {
    private static final int SIZE = 4 * 1024 * 1024 + 123;
    @TempDir
    Path root;
    private byte[] content;
    private final List<ConnectionInfo> connections = new CopyOnWriteArrayList<>();

    @BeforeEach
    void files() throws Exception {
        content = new byte[SIZE];
        new Random(42).nextBytes(content);
        Files.write(root.resolve("big.bin"), content);
        Files.writeString(root.resolve("small.txt"), "hello file\n");
    }

    private HttpServer.Builder server() throws Exception {
        return HttpServer.builder().handler(FileServer.directory(root).build())
                .connectionListener((connection, from, to) -> {
                    if (from == null) {
                        connections.add(connection);
                    }
                });
    }

    private long zeroCopyBytes() {
        return connections.stream().mapToLong(c -> ((ServerConnection) c).transport().bytesSentFromFiles()).sum();
    }

    @Test
    void plaintextHttp11SendsTheFileWithTransferTo() throws Exception {
        try (HttpServer server = server().start();
             HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/big.bin")).timeout(Duration.ofSeconds(30))
                    .build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo(content);
            assertThat(zeroCopyBytes()).as("bytes sent by transferTo").isPositive();
        }
    }

    @Test
    void tlsCopiesInChunksAndStillSendsEveryByte() throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.generate();
        try (HttpServer server = server().tls(certificate.serverContext()).start();
             HttpClient client = HttpClient.newBuilder().sslContext(certificate.clientContext())
                     .version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(
                    URI.create("https://localhost:" + server.port() + "/big.bin")).timeout(Duration.ofSeconds(30))
                    .build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(response.body()).isEqualTo(content);
            assertThat(zeroCopyBytes()).isZero();
        }
    }

    @Test
    void curlOverHttp2GetsTheWholeFileAndARange() throws Exception {
        ExternalProcess.assumeInstalled("curl", "curl");
        try (HttpServer server = server().start()) {
            Path out = root.resolve("h2.out");
            ExternalProcess.Result whole = ExternalProcess.run(List.of("curl", "-s", "--http2-prior-knowledge",
                    "-o", out.toString(), "-w", "%{http_version} %{http_code}",
                    "http://127.0.0.1:" + server.port() + "/big.bin"));
            assertThat(whole.stdout()).isEqualTo("2 200");
            assertThat(Files.readAllBytes(out)).isEqualTo(content);
            ExternalProcess.Result range = ExternalProcess.run(List.of("curl", "-s", "--http2-prior-knowledge",
                    "-r", "100-109", "http://127.0.0.1:" + server.port() + "/big.bin", "-o", out.toString()));
            assertThat(range.exitCode()).isZero();
            assertThat(Files.readAllBytes(out)).isEqualTo(java.util.Arrays.copyOfRange(content, 100, 110));
            assertThat(zeroCopyBytes()).isZero(); // HTTP/2 frames every byte
        }
    }

    @Test
    void curlResumesAnInterruptedDownload() throws Exception {
        ExternalProcess.assumeInstalled("curl", "curl");
        try (HttpServer server = server().start()) {
            Path partial = root.resolve("partial.bin");
            Files.write(partial, java.util.Arrays.copyOf(content, 1_000_000));
            ExternalProcess.Result result = ExternalProcess.run(List.of("curl", "-s", "-C", "-", "-o",
                    partial.toString(), "-w", "%{http_code}", "http://127.0.0.1:" + server.port() + "/big.bin"));
            assertThat(result.stdout()).isEqualTo("206");
            assertThat(sha256(Files.readAllBytes(partial))).isEqualTo(sha256(content));
        }
    }

    @Test
    void curlConditionalGetAndMultipleRanges() throws Exception {
        ExternalProcess.assumeInstalled("curl", "curl");
        try (HttpServer server = server().start()) {
            String url = "http://127.0.0.1:" + server.port() + "/small.txt";
            // -z FILE: If-Modified-Since with the file's own date, which the server's copy has not passed
            ExternalProcess.Result notModified = ExternalProcess.run(List.of("curl", "-s", "-z",
                    root.resolve("small.txt").toString(), "-w", "%{http_code}", "-o", "/dev/null", url));
            assertThat(notModified.stdout()).isEqualTo("304");
            ExternalProcess.Result older = ExternalProcess.run(List.of("curl", "-s", "-z", "1 Jan 2000",
                    "-w", " %{http_code}", url));
            assertThat(older.stdout()).isEqualTo("hello file\n 200");
            ExternalProcess.Result parts = ExternalProcess.run(List.of("curl", "-s", "-i", "-r", "0-1,6-9", url));
            assertThat(parts.stdout()).contains("206").contains("multipart/byteranges")
                    .contains("Content-Range: bytes 0-1/11").contains("\r\n\r\nhe\r\n")
                    .contains("Content-Range: bytes 6-9/11").contains("\r\n\r\nfile\r\n");
        }
    }

    @Test
    void pythonHttpClientReadsARangeAndRevalidates() throws Exception {
        ExternalProcess.assumeInstalled("python3", "python3");
        try (HttpServer server = server().start()) {
            String script = """
                    import http.client
                    c = http.client.HTTPConnection('127.0.0.1', %d)
                    c.request('GET', '/small.txt', headers={'Range': 'bytes=6-'})
                    r = c.getresponse(); body = r.read()
                    etag = r.getheader('ETag')
                    c.request('GET', '/small.txt', headers={'If-None-Match': etag})
                    r2 = c.getresponse(); r2.read()
                    print(r.status, r.getheader('Content-Range'), body.decode().strip(), r2.status)
                    """.formatted(server.port());
            ExternalProcess.Result result = ExternalProcess.run(List.of("/usr/bin/python3", "-c", script));
            assertThat(result.exitCode()).as(result.stderr()).isZero();
            assertThat(result.stdout().strip()).isEqualTo("206 bytes 6-10/11 file 304");
        }
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
