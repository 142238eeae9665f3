package dev.shuttle.server.compress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.ExternalProcess;
import dev.shuttle.server.Handler;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.RawConnection;
import dev.shuttle.server.RawConnection.RawResponse;
import dev.shuttle.server.files.FileServer;
import dev.shuttle.server.routing.Router;
import dev.shuttle.server.routing.StripPrefix;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** gzip for clients that accept it: what gets compressed, what does not, and streaming through a flush. */
class CompressionTest {
    private static final String LONG_TEXT = "All work and no play makes Jack a dull boy.\n".repeat(200);
    @TempDir
    Path root;
    private HttpServer server;
    private final CountDownLatch clientSawFirst = new CountDownLatch(1);

    @BeforeEach
    void start() throws IOException {
        Files.writeString(root.resolve("big.txt"), LONG_TEXT);
        Files.write(root.resolve("photo.png"), new byte[5000]);
        Handler text = (request, response) -> response.send(LONG_TEXT);
        Router router = new Router()
                .handle("/text", text)
                .handle("/short", (request, response) -> response.send("tiny"))
                .handle("/json-declared", (request, response) -> {
                    response.header("Content-Type", "application/json").contentLength(LONG_TEXT.length());
                    response.body().write(LONG_TEXT.getBytes(StandardCharsets.US_ASCII));
                })
                .handle("/encoded", (request, response) -> {
                    response.header("Content-Encoding", "br").header("Content-Type", "text/plain");
                    response.send(new byte[4000]);
                })
                .handle("/no-transform", (request, response) -> {
                    response.header("Cache-Control", "no-transform");
                    response.send(LONG_TEXT);
                })
                .handle("/stream", (request, response) -> {
                    response.header("Content-Type", "text/plain");
                    response.body().write("first line\n".getBytes(StandardCharsets.US_ASCII));
                    response.flush();
                    if (!clientSawFirst.await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the client never saw the first line");
                    }
                    response.body().write("second line\n".getBytes(StandardCharsets.US_ASCII));
                })
                .handle("/files/", StripPrefix.of("/files").wrap(FileServer.directory(root).build()))
                .use(Compression.gzip());
        server = HttpServer.builder().handler(router).start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private RawResponse get(String target, String... fields) throws IOException {
        try (RawConnection connection = new RawConnection(server)) {
            StringBuilder request = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: t\r\n");
            for (int i = 0; i < fields.length; i += 2) {
                request.append(fields[i]).append(": ").append(fields[i + 1]).append("\r\n");
            }
            connection.send(request.append("\r\n").toString());
            return connection.readResponse();
        }
    }

    private static String gunzip(byte[] body) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aLongTextBodyIsCompressedForAClientThatAcceptsGzip() throws Exception {
        RawResponse response = get("/text", "Accept-Encoding", "gzip, deflate, br");
        assertThat(response.header("Content-Encoding")).isEqualTo("gzip");
        assertThat(response.header("Vary")).isEqualTo("Accept-Encoding");
        // Complete when the handler returned, the compressed body is small enough for an exact Content-Length.
        assertThat(response.header("Content-Length")).isEqualTo(String.valueOf(response.body().length));
        assertThat(response.body().length).isLessThan(LONG_TEXT.length() / 10);
        assertThat(gunzip(response.body())).isEqualTo(LONG_TEXT);
    }

    @Test
    void noCompressionWithoutAcceptEncodingButVaryAllTheSame() throws Exception {
        RawResponse response = get("/text");
        assertThat(response.header("Content-Encoding")).isNull();
        assertThat(response.header("Vary")).isEqualTo("Accept-Encoding");
        assertThat(response.bodyText()).isEqualTo(LONG_TEXT);
        assertThat(get("/text", "Accept-Encoding", "gzip;q=0, br").header("Content-Encoding")).isNull();
        assertThat(get("/text", "Accept-Encoding", "*;q=0.5").header("Content-Encoding")).isEqualTo("gzip");
        assertThat(get("/text", "Accept-Encoding", "*, gzip;q=0").header("Content-Encoding")).isNull();
    }

    @Test
    void shortBodiesAndIneligibleOnesGoAsWritten() throws Exception {
        RawResponse tiny = get("/short", "Accept-Encoding", "gzip");
        assertThat(tiny.header("Content-Encoding")).isNull();
        assertThat(tiny.header("Content-Length")).isEqualTo("4");
        assertThat(get("/encoded", "Accept-Encoding", "gzip").header("Content-Encoding")).isEqualTo("br");
        assertThat(get("/no-transform", "Accept-Encoding", "gzip").header("Content-Encoding")).isNull();
        RawResponse png = get("/files/photo.png", "Accept-Encoding", "gzip");
        assertThat(png.header("Content-Encoding")).isNull();
        assertThat(png.header("Vary")).isNull(); // not a compressible type: the answer does not vary
        assertThat(png.header("Content-Length")).isEqualTo("5000");
    }

    @Test
    void aDeclaredLengthDecidesAtOnce() throws Exception {
        RawResponse response = get("/json-declared", "Accept-Encoding", "gzip");
        assertThat(response.header("Content-Encoding")).isEqualTo("gzip");
        assertThat(gunzip(response.body())).isEqualTo(LONG_TEXT);
    }

    @Test
    void filesAreCompressedButNeverARange() throws Exception {
        RawResponse whole = get("/files/big.txt", "Accept-Encoding", "gzip");
        assertThat(whole.header("Content-Encoding")).isEqualTo("gzip");
        assertThat(whole.header("ETag")).startsWith("W/\"");
        assertThat(gunzip(whole.body())).isEqualTo(LONG_TEXT);
        RawResponse range = get("/files/big.txt", "Accept-Encoding", "gzip", "Range", "bytes=0-9");
        assertThat(range.status()).isEqualTo(206);
        assertThat(range.header("Content-Encoding")).isNull();
        assertThat(range.bodyText()).isEqualTo(LONG_TEXT.substring(0, 10));
        // The weak ETag of the compressed copy still revalidates it.
        assertThat(get("/files/big.txt", "Accept-Encoding", "gzip", "If-None-Match", whole.header("ETag")).status())
                .isEqualTo(304);
    }

    @Test
    void aFlushSendsWhatWasWrittenDecompressibleAtOnce() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(("GET /stream HTTP/1.1\r\nHost: t\r\nAccept-Encoding: gzip\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            String head = readHead(in);
            assertThat(head).contains("Content-Encoding: gzip").contains("Transfer-Encoding: chunked");
            GZIPInputStream gzip = new GZIPInputStream(new ChunkedInput(in), 1);
            assertThat(line(gzip)).isEqualTo("first line"); // before the second was even written
            clientSawFirst.countDown();
            assertThat(line(gzip)).isEqualTo("second line");
        }
    }

    @Test
    void realClientsDecompress() throws Exception {
        ExternalProcess.assumeInstalled("curl", "curl");
        for (String protocol : List.of("--http1.1", "--http2-prior-knowledge")) {
            ExternalProcess.Result curl = ExternalProcess.run(List.of("curl", "-s", protocol, "--compressed", "-w",
                    "%{size_download}", "http://127.0.0.1:" + server.port() + "/text"));
            assertThat(curl.stdout()).startsWith(LONG_TEXT);
            long downloaded = Long.parseLong(curl.stdout().substring(LONG_TEXT.length()));
            assertThat(downloaded).isLessThan(LONG_TEXT.length() / 10); // it came compressed
        }
        String script = """
                import http.client, gzip
                c = http.client.HTTPConnection('127.0.0.1', %d)
                c.request('GET', '/files/big.txt', headers={'Accept-Encoding': 'gzip'})
                r = c.getresponse()
                print(r.getheader('Content-Encoding'), len(gzip.decompress(r.read())))
                """.formatted(server.port());
        ExternalProcess.Result python = ExternalProcess.run(List.of("/usr/bin/python3", "-c", script));
        assertThat(python.stdout().strip()).isEqualTo("gzip " + LONG_TEXT.length());
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + server.port() + "/text")).header("Accept-Encoding", "gzip")
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
            assertThat(gunzip(response.body())).isEqualTo(LONG_TEXT);
        }
    }

    @Test
    void acceptEncodingParsing() {
        assertThat(Compression.acceptsGzip("gzip")).isTrue();
        assertThat(Compression.acceptsGzip("GZIP;q=0.1")).isTrue();
        assertThat(Compression.acceptsGzip("x-gzip")).isTrue();
        assertThat(Compression.acceptsGzip("deflate, br")).isFalse();
        assertThat(Compression.acceptsGzip("gzip;q=0")).isFalse();
        assertThat(Compression.acceptsGzip("gzip;q=0.000")).isFalse();
        assertThat(Compression.acceptsGzip("gzip;q=abc")).isFalse();
        assertThat(Compression.acceptsGzip("identity")).isFalse();
        assertThat(Compression.acceptsGzip("")).isFalse();
        assertThat(Compression.acceptsGzip(null)).isFalse();
    }

    /** One line, read a byte at a time: a reader that reads ahead would wait for bytes not sent yet. */
    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c; (c = in.read()) != '\n'; ) {
            if (c < 0) {
                throw new IOException("eof");
            }
            line.append((char) c);
        }
        return line.toString();
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed in the head");
            }
            head.append((char) b);
        }
        return head.toString();
    }

    /** Chunked framing removed, read as the chunks arrive (no read-ahead past what is needed). */
    private static final class ChunkedInput extends InputStream {
        private final InputStream in;
        private int left;
        private boolean done;

        ChunkedInput(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (done) {
                return -1;
            }
            if (left == 0) {
                String line = line();
                if (line.isEmpty()) {
                    line = line(); // the CRLF after the previous chunk's data
                }
                left = Integer.parseInt(line.strip(), 16);
                if (left == 0) {
                    done = true;
                    return -1;
                }
            }
            int n = in.read(b, off, Math.min(len, left));
            left -= n;
            return n;
        }

        private String line() throws IOException {
            StringBuilder line = new StringBuilder();
            for (int c; (c = in.read()) != '\n'; ) {
                if (c < 0) {
                    throw new IOException("eof");
                }
                if (c != '\r') {
                    line.append((char) c);
                }
            }
            return line.toString();
        }
    }
}
