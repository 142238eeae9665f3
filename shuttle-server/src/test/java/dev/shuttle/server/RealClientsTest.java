package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Clients no one here wrote, over loopback: curl, Python's http.client and requests, and the JDK HttpClient. Each
 * must reuse one connection for several requests, which the server counts through its listener.
 */
class RealClientsTest {
    private HttpServer server;
    private final LongAdder newConnections = new LongAdder();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.builder()
                .handler(RealClientsTest::handle)
                .connectionListener((connection, from, to) -> {
                    if (to == ConnectionState.NEW) {
                        newConnections.increment();
                    }
                })
                .start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** /echo echoes the body; /big/N sends N bytes chunked; anything else says which path it got. */
    private static void handle(Request request, Response response) throws IOException {
        if (request.path().equals("/echo")) {
            byte[] body = request.bodyBytes();
            response.header("Content-Type", "application/octet-stream").send(body);
        } else if (request.path().startsWith("/big/")) {
            int size = Integer.parseInt(request.path().substring(5));
            byte[] block = new byte[1000];
            var out = response.body();
            for (int sent = 0; sent < size; sent += block.length) {
                out.write(block, 0, Math.min(block.length, size - sent));
            }
        } else {
            response.send("path=" + request.path());
        }
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    @Test
    void curlReusesOneConnectionAcrossUrls() throws Exception {
        // One -o per URL: curl pairs output options with URLs in order.
        ExternalProcess.Result result = run(List.of("curl", "-s", "-o", "/dev/null", "-o", "/dev/null", "-o", "/dev/null",
                "-w", "%{num_connects} %{http_code} %{size_download}\\n",
                url("/a"), url("/b"), url("/big/100000")));
        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout().lines()).containsExactly("1 200 7", "0 200 7", "0 200 100000");
        assertThat(newConnections.sum()).isEqualTo(1);
    }

    @Test
    void curlPostsWithExpectContinueAndGetsTheEcho() throws Exception {
        // curl sends "Expect: 100-continue" for bodies over 1 MiB (1024 bytes on older versions); force it anyway.
        ExternalProcess.Result result = run(List.of("curl", "-s", "-H", "Expect: 100-continue", "--data-binary",
                "@-", url("/echo")), "x".repeat(200_000).getBytes(StandardCharsets.US_ASCII));
        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout()).hasSize(200_000).matches("x+");
    }

    @Test
    void pythonHttpClientMakesThreeRequestsOnOneConnection() throws Exception {
        String script = """
                import http.client, sys
                c = http.client.HTTPConnection('127.0.0.1', %d)
                out = []
                for path in ['/one', '/two', '/big/70000']:
                    c.request('GET', path)
                    r = c.getresponse()
                    body = r.read()
                    out.append('%%d %%d' %% (r.status, len(body)))
                c.request('POST', '/echo', body=b'abc' * 1000, headers={'Content-Type': 'text/plain'})
                r = c.getresponse()
                out.append('%%d %%s' %% (r.status, r.read() == b'abc' * 1000))
                print(' '.join(out))
                """.formatted(server.port());
        ExternalProcess.Result result = run(List.of("/usr/bin/python3", "-c", script));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout().strip()).isEqualTo("200 9 200 9 200 70000 200 True");
        assertThat(newConnections.sum()).isEqualTo(1);
        assertThat(server.stats().requests()).isEqualTo(4);
    }

    @Test
    void pythonRequestsSessionReusesItsConnection() throws Exception {
        Assumptions.assumeTrue(run(List.of("/usr/bin/python3", "-c", "import requests")).exitCode() == 0,
                "Python's requests is not installed (apt-get install python3-requests)");
        String script = """
                import requests
                s = requests.Session()
                bodies = [s.get('http://127.0.0.1:%d/p%%d' %% i).text for i in range(3)]
                posted = s.post('http://127.0.0.1:%d/echo', data=b'z' * 5000).content
                print(','.join(bodies), len(posted))
                """.formatted(server.port(), server.port());
        ExternalProcess.Result result = run(List.of("/usr/bin/python3", "-c", script));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout().strip()).isEqualTo("path=/p0,path=/p1,path=/p2 5000");
        assertThat(newConnections.sum()).isEqualTo(1);
    }

    @Test
    void jdkHttpClientReusesItsConnection() throws Exception {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url("/jdk" + i)))
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.body()).isEqualTo("path=/jdk" + i);
            }
            HttpResponse<byte[]> echoed = client.send(HttpRequest.newBuilder(URI.create(url("/echo")))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[300_000])).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(echoed.body()).hasSize(300_000);
            HttpResponse<byte[]> big = client.send(HttpRequest.newBuilder(URI.create(url("/big/1000000"))).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(big.headers().firstValue("Transfer-Encoding")).hasValue("chunked");
            assertThat(big.body()).hasSize(1_000_000);
        }
        assertThat(newConnections.sum()).isEqualTo(1);
    }

    private static ExternalProcess.Result run(List<String> command) throws Exception {
        return ExternalProcess.run(command);
    }

    private static ExternalProcess.Result run(List<String> command, byte[] stdin) throws Exception {
        return ExternalProcess.run(command, stdin, null);
    }
}
