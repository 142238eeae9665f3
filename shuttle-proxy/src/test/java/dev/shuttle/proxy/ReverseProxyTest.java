package dev.shuttle.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.DrainOutcome;
import dev.shuttle.client.HttpClient;
import dev.shuttle.server.Cancellation;
import dev.shuttle.server.ClientGoneException;
import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.routing.Router;
import dev.shuttle.wire.Headers;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy between real clients and a Shuttle upstream: what crosses, what does not, and what a failure becomes. */
class ReverseProxyTest {
    private static final byte[] BIG = new byte[64 * 1024];

    static {
        new Random(1).nextBytes(BIG);
    }

    private HttpServer upstream;
    private HttpServer proxyServer;
    private ReverseProxy proxy;
    private final AtomicInteger upstreamConnections = new AtomicInteger();
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch secondPart = new CountDownLatch(1);
    private final CompletableFuture<Throwable> upstreamCancelled = new CompletableFuture<>();

    @BeforeEach
    void start() throws IOException {
        Router router = new Router()
                .handle("/api/echo-head", (request, response) -> {
                    StringBuilder text = new StringBuilder(request.method() + " " + request.target() + " "
                            + request.version() + "\n");
                    Headers headers = request.headers();
                    for (int i = 0; i < headers.size(); i++) {
                        text.append(headers.name(i).toLowerCase()).append(": ").append(headers.value(i)).append('\n');
                    }
                    response.header("Connection", "X-Private").header("X-Private", "hop").header("Keep-Alive", "5");
                    response.header("X-Kept", "end-to-end");
                    response.send(text.toString());
                })
                .handle("POST /api/upload", (request, response) -> {
                    byte[] body = request.bodyBytes();
                    response.send(body.length + " " + java.util.Arrays.hashCode(body));
                })
                .handle("/api/big", (request, response) -> response.send(BIG))
                .handle("/api/two-parts", (request, response) -> {
                    response.contentLength(BIG.length);
                    response.body().write(BIG, 0, 1024);
                    response.flush();
                    secondPart.await(); // until the downstream client is gone
                    response.body().write(BIG, 1024, BIG.length - 1024);
                })
                .handle("/api/trailers", (request, response) -> {
                    response.header("Trailer", "X-Checksum");
                    response.trailers(Headers.of("X-Checksum", "abc123"));
                    response.body().write("with trailers".getBytes(StandardCharsets.US_ASCII));
                })
                .handle("/api/slow", (request, response) -> {
                    release.await();
                    response.send("late");
                })
                .handle("/api/wait-for-cancel", (request, response) -> {
                    Cancellation signal = request.cancellation();
                    signal.await();
                    upstreamCancelled.complete(signal.cause());
                })
                .handle("/api/events", (request, response) -> {
                    response.header("Content-Type", "text/event-stream");
                    response.body().write("data: one\n\n".getBytes(StandardCharsets.US_ASCII));
                    response.flush();
                    release.await();
                    response.body().write("data: two\n\n".getBytes(StandardCharsets.US_ASCII));
                });
        upstream = HttpServer.builder().handler(router).connectionListener((connection, from, to) -> {
            if (to == ConnectionState.NEW) {
                upstreamConnections.incrementAndGet();
            }
        }).start();
        proxy = ReverseProxy.to("http://127.0.0.1:" + upstream.port() + "/api").build();
        proxyServer = HttpServer.builder().handler(proxy).start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        secondPart.countDown();
        proxyServer.close();
        proxy.close();
        upstream.close();
    }

    private String url(String path) {
        return "http://127.0.0.1:" + proxyServer.port() + path;
    }

    @Test
    void headersCrossExceptHopByHopAndForwardingIsAdded() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", proxyServer.port())) {
            socket.getOutputStream().write(("GET /echo-head?q=1 HTTP/1.1\r\nHost: front.example\r\n"
                    + "Connection: keep-alive, X-Secret\r\nX-Secret: hop\r\nKeep-Alive: 10\r\n"
                    + "TE: gzip, trailers\r\nProxy-Authorization: Basic eA==\r\nX-Forwarded-For: 10.0.0.1\r\n"
                    + "X-Custom: end-to-end\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String answer = readResponse(socket.getInputStream());
            assertThat(answer).contains("GET /api/echo-head?q=1 HTTP/1.1\n")
                    .contains("x-custom: end-to-end").contains("te: trailers\n")
                    .contains("x-forwarded-for: 10.0.0.1, 127.0.0.1").contains("x-forwarded-host: front.example")
                    .contains("x-forwarded-proto: http")
                    .contains("forwarded: for=127.0.0.1;host=front.example;proto=http")
                    .doesNotContain("x-secret").doesNotContain("keep-alive").doesNotContain("proxy-authorization");
            // and on the way back: the upstream's hop-by-hop fields stay behind
            assertThat(answer).contains("X-Kept: end-to-end").doesNotContain("X-Private").doesNotContain("Keep-Alive");
        }
    }

    @Test
    void uploadsStreamThroughWithAndWithoutALength() throws Exception {
        byte[] body = new byte[3 * 1024 * 1024];
        new Random(2).nextBytes(body);
        String expected = body.length + " " + java.util.Arrays.hashCode(body);
        try (java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<String> sized = client.send(HttpRequest.newBuilder(URI.create(url("/upload")))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(sized.body()).isEqualTo(expected);
            HttpResponse<String> chunked = client.send(HttpRequest.newBuilder(URI.create(url("/upload")))
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(body)))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(chunked.body()).isEqualTo(expected);
        }
    }

    @Test
    void trailersArePassedOn() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", proxyServer.port())) {
            socket.getOutputStream().write("GET /trailers HTTP/1.1\r\nHost: t\r\nTE: trailers\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            String answer = readResponse(socket.getInputStream());
            assertThat(answer).contains("Transfer-Encoding: chunked").contains("Trailer: X-Checksum")
                    .contains("with trailers").contains("X-Checksum: abc123");
        }
    }

    @Test
    void http2DownstreamToHttp11UpstreamAndBack() throws Exception {
        assumeCurl();
        ProcessBuilder curl = new ProcessBuilder("curl", "-s", "--http2-prior-knowledge", url("/echo-head"));
        String viaH2 = new String(curl.start().getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(viaH2).startsWith("GET /api/echo-head HTTP/1.1"); // HTTP/2 in, HTTP/1.1 out
        try (HttpClient h2c = HttpClient.builder().http2PriorKnowledge(true).build();
             ReverseProxy toH2 = ReverseProxy.to("http://127.0.0.1:" + upstream.port()).client(h2c).build();
             HttpServer front = HttpServer.builder().handler(toH2).start()) {
            try (Socket socket = new Socket("127.0.0.1", front.port())) {
                socket.getOutputStream().write("GET /api/echo-head HTTP/1.1\r\nHost: t\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                assertThat(readResponse(socket.getInputStream())).contains("GET /api/echo-head HTTP/2");
            }
        }
    }

    @Test
    void anUnreachableUpstreamIs502() throws Exception {
        int closedPort;
        try (ServerSocket unused = new ServerSocket(0)) {
            closedPort = unused.getLocalPort();
        }
        try (ReverseProxy nowhere = ReverseProxy.to("http://127.0.0.1:" + closedPort).build();
             HttpServer front = HttpServer.builder().handler(nowhere).start();
             Socket socket = new Socket("127.0.0.1", front.port())) {
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(readResponse(socket.getInputStream())).startsWith("HTTP/1.1 502");
        }
    }

    @Test
    void anUpstreamThatDoesNotAnswerInTimeIs504() throws Exception {
        try (HttpClient impatient = HttpClient.builder().responseHeaderTimeout(Duration.ofMillis(200)).build();
             ReverseProxy slow = ReverseProxy.to("http://127.0.0.1:" + upstream.port()).client(impatient).build();
             HttpServer front = HttpServer.builder().handler(slow).start();
             Socket socket = new Socket("127.0.0.1", front.port())) {
            socket.getOutputStream().write("GET /api/slow HTTP/1.1\r\nHost: t\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            assertThat(readResponse(socket.getInputStream())).startsWith("HTTP/1.1 504");
        }
    }

    @Test
    void aDownstreamAbortMidBodyKeepsTheUpstreamConnection() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", proxyServer.port())) {
            socket.getOutputStream().write("GET /two-parts HTTP/1.1\r\nHost: t\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            assertThat(in.readNBytes(100)).hasSize(100); // the head and a little body, then gone
            socket.setSoLinger(true, 0);
        }
        secondPart.countDown(); // the rest reaches the proxy, whose next write to the client fails
        // The upstream response is closed, not aborted: the client drains its rest and pools the connection.
        awaitTrue(() -> proxy.stats().drains().entrySet().stream()
                .anyMatch(e -> e.getValue() > 0 && e.getKey() != DrainOutcome.COMPLETE));
        awaitTrue(() -> proxy.stats().origins().values().stream().allMatch(o -> o.draining() == 0));
        assertThat(proxy.stats().drains(DrainOutcome.REUSED_INLINE) + proxy.stats().drains(DrainOutcome.REUSED_ASYNC))
                .isEqualTo(1);
        try (java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient()) {
            HttpResponse<byte[]> again = client.send(HttpRequest.newBuilder(URI.create(url("/big"))).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(again.body()).isEqualTo(BIG);
        }
        assertThat(upstreamConnections.get()).isEqualTo(1);
        assertThat(proxy.stats().connectionsOpened()).isEqualTo(1);
    }

    @Test
    void aDownstreamThatLeavesBeforeTheAnswerCancelsTheUpstreamExchange() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", proxyServer.port())) {
            socket.getOutputStream().write("GET /wait-for-cancel HTTP/1.1\r\nHost: t\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            awaitTrue(() -> upstream.stats().requests() == 1);
        } // the downstream leaves; the proxy cancels its exchange, which closes that upstream connection
        assertThat(upstreamCancelled.get(10, TimeUnit.SECONDS)).isInstanceOf(ClientGoneException.class);
    }

    @Test
    void eventsAreFlushedThroughAsTheyCome() throws Exception {
        assumeCurl();
        Process curl = new ProcessBuilder("curl", "-s", "-N", url("/events")).start();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(curl.getInputStream(),
                StandardCharsets.UTF_8))) {
            assertThat(lines.readLine()).isEqualTo("data: one"); // while the upstream still waits
            release.countDown();
            assertThat(lines.readLine()).isEmpty();
            assertThat(lines.readLine()).isEqualTo("data: two");
        } finally {
            curl.destroy();
            curl.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static void assumeCurl() {
        org.junit.jupiter.api.Assumptions.assumeTrue(new java.io.File("/usr/bin/curl").canExecute(),
                "curl is not installed (Debian package curl)");
    }

    /** A whole HTTP/1.1 response read as text: head, then the body by its framing, trailers included. */
    static String readResponse(InputStream in) throws IOException {
        StringBuilder text = new StringBuilder();
        String line;
        long length = -1;
        boolean chunked = false;
        while (!(line = line(in)).isEmpty()) {
            text.append(line).append("\r\n");
            String lower = line.toLowerCase();
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(line.substring(15).strip());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            }
        }
        text.append("\r\n");
        if (chunked) {
            while (true) {
                int size = Integer.parseInt(line(in).strip(), 16);
                if (size == 0) {
                    while (!(line = line(in)).isEmpty()) {
                        text.append(line).append("\r\n"); // trailers
                    }
                    break;
                }
                text.append(new String(in.readNBytes(size), StandardCharsets.ISO_8859_1));
                line(in);
            }
        } else if (length >= 0) {
            text.append(new String(in.readNBytes((int) length), StandardCharsets.ISO_8859_1));
        }
        return text.toString();
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c; (c = in.read()) != '\n'; ) {
            if (c < 0) {
                throw new IOException("closed mid-line: " + line);
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    private static void awaitTrue(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 10 s");
            }
            Thread.yield();
        }
    }

}
