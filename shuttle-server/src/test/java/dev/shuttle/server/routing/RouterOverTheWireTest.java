package dev.shuttle.server.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.ExternalProcess;
import dev.shuttle.server.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The router behind a real server: path values, HEAD, 405 and redirects as curl and the JDK client see them. */
class RouterOverTheWireTest {
    private HttpServer server;

    @BeforeEach
    void start() throws Exception {
        Router router = new Router()
                .handle("GET /items/{id}", (request, response) -> response.send("item " + request.pathValue("id")))
                .handle("DELETE /items/{id}", (request, response) -> response.status(204))
                .handle("/docs/", (request, response) -> response.send("docs"));
        server = HttpServer.builder().handler(router).start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String url(String target) {
        return "http://127.0.0.1:" + server.port() + target;
    }

    @Test
    void curlOverHttp11AndHttp2() throws Exception {
        ExternalProcess.assumeInstalled("curl", "curl");
        for (String protocol : List.of("--http1.1", "--http2-prior-knowledge")) {
            ExternalProcess.Result get = ExternalProcess.run(List.of("curl", "-s", protocol, url("/items/a%20b")));
            assertThat(get.stdout()).isEqualTo("item a b");
            ExternalProcess.Result put = ExternalProcess.run(List.of("curl", "-s", "-o", "/dev/null", "-D", "-",
                    protocol, "-X", "PUT", url("/items/1")));
            assertThat(put.stdout()).containsIgnoringCase("405").containsIgnoringCase("allow: DELETE, GET, HEAD");
            ExternalProcess.Result head = ExternalProcess.run(List.of("curl", "-s", "-I", protocol,
                    url("/items/9")));
            assertThat(head.stdout()).containsIgnoringCase("content-length: 6");
        }
    }

    @Test
    void theJdkClientFollowsTheTrailingSlashRedirect() throws Exception {
        try (HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build()) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url("/docs")))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.body()).isEqualTo("docs");
            assertThat(response.uri().getPath()).isEqualTo("/docs/");
        }
    }
}
