package dev.shuttle.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.BodyHandler;
import dev.shuttle.client.BodyPublisher;
import dev.shuttle.client.CompletedResponse;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.RedirectPolicy;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.mockserver.MockResponse;
import dev.shuttle.mockserver.MockServer;
import dev.shuttle.mockserver.RecordedRequest;
import dev.shuttle.mockserver.ReuseAssertions;
import dev.shuttle.mockserver.junit.ShuttleMockServer;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.compress.Compression;
import dev.shuttle.server.files.FileServer;
import dev.shuttle.server.routing.Router;
import dev.shuttle.server.routing.StripPrefix;
import dev.shuttle.server.routing.Timeout;
import dev.shuttle.transport.tls.KeyMaterial;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import dev.shuttle.wire.HttpVersion;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recipes of {@code docs/COOKBOOK.md}, each run against a server on 127.0.0.1: the code between the
 * {@code // recipe} markers is the code the cookbook shows, so a change to the API that breaks a recipe breaks this
 * test. Keep the two in step.
 */
@org.junit.jupiter.api.Timeout(value = 60, threadMode = ThreadMode.SEPARATE_THREAD)
class CookbookTest {

    /** A server on an ephemeral port of 127.0.0.1 with the given router; the recipes show port 8080. */
    private static HttpServer start(Router router) throws Exception {
        return HttpServer.builder().host("127.0.0.1").port(0).handler(router).start();
    }

    private static String base(HttpServer server, String scheme) {
        return scheme + "://127.0.0.1:" + server.port();
    }

    @Test
    void clientGetAndPostJson() throws Exception {
        Router router = new Router()
                .handle("GET /users/{id}", (request, response) -> response.send("user " + request.pathValue("id")))
                .handle("POST /users", (request, response) -> {
                    String json = new String(request.bodyBytes(), StandardCharsets.UTF_8);
                    response.status(201).header("Content-Type", "application/json").send(json);
                });
        try (HttpServer server = start(router)) {
            String base = base(server, "http");
            // recipe: client-get-post
            try (HttpClient client = HttpClient.create()) {         // one client per application: it holds the pool
                CompletedResponse<String> page = client.send(Request.get(base + "/users/7"),
                        BodyHandler.ofString(1 << 20));              // read whole, at most 1 MiB, closed
                assertThat(page.status()).isEqualTo(200);
                assertThat(page.body()).isEqualTo("user 7");

                Request create = Request.newBuilder(base + "/users")
                        .POST(BodyPublisher.ofJson("{\"name\":\"Ada\"}"))   // Content-Type: application/json
                        .header("Accept", "application/json")
                        .build();
                CompletedResponse<String> created = client.send(create, BodyHandler.ofString());
                assertThat(created.status()).isEqualTo(201);
                assertThat(created.header("Content-Type")).isEqualTo("application/json");
                assertThat(created.body()).isEqualTo("{\"name\":\"Ada\"}");
            }
            // end
        }
    }

    @Test
    void clientTimeouts(@ShuttleMockServer MockServer server) throws Exception {
        server.enqueue(MockResponse.builder().text("late").headDelay(Duration.ofSeconds(2)).build());
        // recipe: client-timeouts
        HttpClient client = HttpClient.builder()
                .connectTimeout(Duration.ofSeconds(5))     // default 10 s
                .readTimeout(Duration.ofSeconds(30))       // default 10 s: no byte for this long; NO_TIMEOUT for SSE
                .callTimeout(Duration.ofMinutes(2))        // default none: the whole call, redirects and retries too
                .build();
        Request quick = Request.newBuilder(server.url("/slow"))
                .timeout(Duration.ofMillis(200))           // this call only, instead of callTimeout
                .build();
        assertThatThrownBy(() -> client.send(quick, BodyHandler.ofString()))
                .isInstanceOfSatisfying(HttpTimeoutException.class,
                        e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.CALL));
        // end
        client.close();
    }

    @Test
    void clientRedirectsAndCompressionDefaults() throws Exception {
        Router router = new Router()
                .handle("GET /old", (request, response) -> response.header("Location", "/new").send(301, ""))
                .handle("GET /new", (request, response) -> response.header("Content-Type", "text/plain")
                        .send("new ".repeat(1000)))
                .use(Compression.gzip());
        try (HttpServer server = start(router)) {
            String base = base(server, "http");
            // recipe: client-redirects-compression
            try (HttpClient client = HttpClient.create()) {   // follows redirects, asks for gzip: both on by default
                CompletedResponse<String> page = client.send(Request.get(base + "/old"), BodyHandler.ofString());
                assertThat(page.status()).isEqualTo(200);
                assertThat(page.body()).startsWith("new new");       // decoded: gzip removed from the headers too
                assertThat(page.header("Content-Encoding")).isNull();
            }
            try (HttpClient client = HttpClient.builder()
                    .redirectPolicy(RedirectPolicy.none())          // hand 3xx to the caller
                    .compression(false)                             // no Accept-Encoding, bodies as sent
                    .build()) {
                CompletedResponse<Void> moved = client.send(Request.get(base + "/old"), BodyHandler.discarding());
                assertThat(moved.status()).isEqualTo(301);
                assertThat(moved.header("Location")).isEqualTo("/new");
            }
            // end
        }
    }

    @Test
    void clientClosingBodies(@ShuttleMockServer MockServer server) throws Exception {
        for (int i = 0; i < 3; i++) {
            server.enqueue(MockResponse.ofSize(2048));
        }
        // recipe: client-close-bodies
        try (HttpClient client = HttpClient.create()) {
            try (Response response = client.send(Request.get(server.url("/status")))) {  // streaming: close it
                assertThat(response.status()).isEqualTo(200);       // body left unread: close drains it, keeps the
            }                                                       // connection for the next call
            try (Response response = client.send(Request.get(server.url("/lines")));
                 BufferedReader lines = new BufferedReader(
                         new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                assertThat(lines.readLine()).isNotEmpty();          // read as much as you need
            }
            Response whole = client.send(Request.get(server.url("/whole")));
            assertThat(whole.bytes(64 * 1024)).hasSize(2048);       // bytes(max) and string(max) close it for you
        }
        ReuseAssertions.assertReuse(server).requests(3).newConnectionsAtMost(1);
        // end
    }

    @Test
    void serverRouterAndHandlers() throws Exception {
        // recipe: server-router
        Router router = new Router()
                .handle("GET /items/{id}", (request, response) ->
                        response.header("Content-Type", "text/plain; charset=utf-8")
                                .send("item " + request.pathValue("id")))
                .handle("POST /items/", (request, response) -> {
                    byte[] body = request.bodyBytes();               // bounded by the server's limits
                    response.status(201).header("Location", "/items/42").send("stored " + body.length + " bytes");
                })
                .handle("GET /search", (request, response) -> response.send("q=" + request.queryParameter("q")))
                .handle("GET /report", (request, response) -> response.send("done"),
                        Timeout.of(Duration.ofSeconds(5)));          // 503 when the handler is late
        HttpServer server = HttpServer.builder()
                .host("127.0.0.1")                                   // default: every interface
                .port(0)                                             // a free port, see server.port(); or 8080
                .handler(router)
                .start();
        // end
        try (server; HttpClient client = HttpClient.create()) {
            String base = base(server, "http");
            assertThat(client.send(Request.get(base + "/items/7"), BodyHandler.ofString()).body())
                    .isEqualTo("item 7");
            CompletedResponse<String> stored = client.send(Request.newBuilder(base + "/items/")
                    .POST(BodyPublisher.ofString("hello")).build(), BodyHandler.ofString());
            assertThat(stored.status()).isEqualTo(201);
            assertThat(stored.body()).isEqualTo("stored 5 bytes");
            assertThat(client.send(Request.newBuilder(base + "/search").query("q", "grüße").build(),
                    BodyHandler.ofString()).body()).isEqualTo("q=grüße");
            assertThat(client.send(Request.get(base + "/report"), BodyHandler.ofString()).body()).isEqualTo("done");
            assertThat(client.send(Request.get(base + "/nothing"), BodyHandler.discarding()).status()).isEqualTo(404);
            assertThat(client.send(Request.newBuilder(base + "/items/7").DELETE().build(), BodyHandler.discarding())
                    .status()).isEqualTo(405);
        }
    }

    @Test
    void serverFiles(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("hello.txt"), "hello from disk");
        Path publicDir = dir;
        // recipe: server-files
        Router router = new Router()
                .handle("GET /static/", StripPrefix.of("/static")
                        .wrap(FileServer.directory(publicDir).build()));   // ETag, Range, 304; no listing
        // end
        try (HttpServer server = start(router); HttpClient client = HttpClient.create()) {
            CompletedResponse<String> file = client.send(Request.get(base(server, "http") + "/static/hello.txt"),
                    BodyHandler.ofString());
            assertThat(file.body()).isEqualTo("hello from disk");
            assertThat(file.header("Content-Type")).startsWith("text/plain");
            String etag = file.header("ETag");
            assertThat(etag).isNotNull();
            CompletedResponse<Void> again = client.send(Request.newBuilder(base(server, "http") + "/static/hello.txt")
                    .header("If-None-Match", etag).build(), BodyHandler.discarding());
            assertThat(again.status()).isEqualTo(304);
        }
    }

    @Test
    void serverStreaming() throws Exception {
        // recipe: server-streaming
        Router router = new Router().handle("GET /events", (request, response) -> {
            response.header("Content-Type", "text/event-stream");
            OutputStream out = response.body();                     // no Content-Length: chunked, or DATA frames
            for (int i = 1; i <= 3 && !request.cancellation().isCancelled(); i++) {
                out.write(("data: tick " + i + "\n\n").getBytes(StandardCharsets.UTF_8));
                response.flush();                                   // send it now, not when the buffer fills
            }
        });
        // end
        try (HttpServer server = start(router); HttpClient client = HttpClient.create()) {
            // recipe: client-streaming
            List<String> events = new ArrayList<>();
            try (Response response = client.send(Request.get(base(server, "http") + "/events"));
                 BufferedReader lines = new BufferedReader(
                         new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    if (line.startsWith("data: ")) {
                        events.add(line.substring(6));
                    }
                }
            }
            assertThat(events).containsExactly("tick 1", "tick 2", "tick 3");
            // end
        }
    }

    @Test
    void tlsBothSides(@TempDir Path dir) throws Exception {
        SelfSignedCertificate generated = SelfSignedCertificate.generate();
        Path chainPem = dir.resolve("chain.pem");
        Path keyPem = dir.resolve("key.pem");
        Path caPem = dir.resolve("ca.pem");
        generated.writePem(chainPem, keyPem);
        generated.writeAuthorityPem(caPem);
        Router router = new Router().handle("GET /", (request, response) -> response.send("secure"));
        // recipe: tls-pem
        SSLContext serverTls = KeyMaterial.serverContextFromPem(chainPem, keyPem);   // PEM chain and PKCS#8 key
        HttpServer server = HttpServer.builder().host("127.0.0.1").port(0).handler(router).tls(serverTls).start();

        SSLContext trust = KeyMaterial.trusting(caPem);      // a private CA; the JDK's trust store is the default
        try (HttpClient client = HttpClient.builder().sslContext(trust).build()) {
            CompletedResponse<String> page = client.send(Request.get("https://127.0.0.1:" + server.port() + "/"),
                    BodyHandler.ofString());
            assertThat(page.body()).isEqualTo("secure");
            assertThat(page.version()).isEqualTo(HttpVersion.HTTP_2);   // h2 chosen by ALPN
        }
        server.close();
        // end

        // recipe: tls-self-signed
        SelfSignedCertificate certificate = SelfSignedCertificate.generate();   // localhost, 127.0.0.1, ::1
        try (HttpServer local = HttpServer.builder().host("127.0.0.1").port(0).handler(router)
                .tls(certificate.serverContext()).start();
             HttpClient client = HttpClient.builder().sslContext(certificate.clientContext()).build()) {
            assertThat(client.send(Request.get("https://127.0.0.1:" + local.port() + "/"), BodyHandler.ofString())
                    .body()).isEqualTo("secure");
        }
        // end
    }

    @Test
    void http2Choices() throws Exception {
        Router router = new Router().handle("GET /", (request, response) -> response.send("hi"));
        SelfSignedCertificate certificate = SelfSignedCertificate.generate();
        try (HttpServer plain = start(router);
             HttpServer tls = HttpServer.builder().host("127.0.0.1").port(0).handler(router)
                     .tls(certificate.serverContext()).start()) {
            String h2c = base(plain, "http") + "/";
            String h2 = base(tls, "https") + "/";
            // recipe: http2
            try (HttpClient client = HttpClient.builder().sslContext(certificate.clientContext()).build()) {
                assertThat(client.send(Request.get(h2), BodyHandler.ofString()).version())
                        .isEqualTo(HttpVersion.HTTP_2);       // https: h2 offered by ALPN, HTTP/1.1 if refused
                assertThat(client.send(Request.get(h2c), BodyHandler.ofString()).version())
                        .isEqualTo(HttpVersion.HTTP_1_1);     // http: HTTP/1.1 unless told otherwise
            }
            try (HttpClient client = HttpClient.builder().http2PriorKnowledge(true).build()) {
                assertThat(client.send(Request.get(h2c), BodyHandler.ofString()).version())
                        .isEqualTo(HttpVersion.HTTP_2);       // h2c from the first byte, for servers known to speak it
            }
            try (HttpClient client = HttpClient.builder().sslContext(certificate.clientContext())
                    .http2(false).build()) {
                assertThat(client.send(Request.get(h2), BodyHandler.ofString()).version())
                        .isEqualTo(HttpVersion.HTTP_1_1);     // offer only http/1.1 in ALPN
            }
            // end
        }
    }

    @Test
    void mockServerInATest(@ShuttleMockServer MockServer server) throws Exception {
        // recipe: mock-server
        server.enqueue(MockResponse.builder().status(201).json("{\"id\":42}\n").build());
        server.enqueue(MockResponse.text("second"));
        try (HttpClient client = HttpClient.create()) {
            CompletedResponse<String> created = client.send(Request.newBuilder(server.url("/items"))
                    .POST(BodyPublisher.ofJson("{\"name\":\"x\"}")).build(), BodyHandler.ofString());
            assertThat(created.status()).isEqualTo(201);
            assertThat(client.send(Request.get(server.url("/next")), BodyHandler.ofString()).body())
                    .isEqualTo("second");
        }
        RecordedRequest first = server.takeRequest(Duration.ofSeconds(5));
        assertThat(first.method()).isEqualTo("POST");
        assertThat(first.path()).isEqualTo("/items");
        assertThat(new String(first.body(), StandardCharsets.UTF_8)).isEqualTo("{\"name\":\"x\"}");
        assertThat(server.takeRequest(Duration.ofSeconds(5)).reusedConnection()).isTrue();
        ReuseAssertions.assertReuse(server).requests(2).newConnectionsAtMost(1);
        // end
    }

    @Test
    void mockServerOverHttp2() throws Exception {
        // recipe: mock-server-h2
        try (MockServer server = MockServer.builder().tls().http2().start();
             HttpClient client = HttpClient.builder().sslContext(server.clientContext()).build()) {
            server.enqueue(MockResponse.ofSize(100));
            assertThat(client.send(Request.get(server.url("/")), BodyHandler.ofBytes()).version())
                    .isEqualTo(HttpVersion.HTTP_2);
        }
        // end
    }

    /** Each recipe above appears in the cookbook exactly as here, indentation aside: the two cannot drift apart. */
    @Test
    void cookbookShowsEachRecipeAsTested() throws Exception {
        String cookbook = Files.readString(Path.of("../docs/COOKBOOK.md"));
        List<String> source = Files.readAllLines(Path.of("src/test/java/dev/shuttle/interop/CookbookTest.java"));
        int recipes = 0;
        for (int i = 0; i < source.size(); i++) {
            String start = source.get(i).strip();
            if (!start.startsWith("// recipe: ")) {
                continue;
            }
            int indent = source.get(i).indexOf('/');
            StringBuilder block = new StringBuilder();
            for (i++; !source.get(i).strip().equals("// end"); i++) {
                String line = source.get(i);
                block.append(line.isBlank() ? "" : line.substring(Math.min(indent, line.length()))).append('\n');
            }
            assertThat(cookbook).as(start).contains("```java\n" + block + "```\n");
            recipes++;
        }
        assertThat(recipes).isEqualTo(13);
    }
}
