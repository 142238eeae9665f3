package dev.shuttle.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.DrainPolicy;
import dev.shuttle.lab.fixture.FixtureServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code shuttle serve --files} and {@code shuttle proxy}, started as the command line starts them. */
class FilesAndProxyCommandTest {
    @Test
    void serveFilesServesADirectoryWithRangesAndLogsWithVerbose(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("hello.txt"), "hello, files\n");
        ServeCommand serve = new CommandLine(new ServeCommand())
                .parseArgs("--files", dir.toString(), "--port", "0", "-v", "--gzip").commandSpec().commandLine()
                .getCommand();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (ServeCommand.Serving serving = serve.start(new PrintStream(printed, true, StandardCharsets.UTF_8));
             HttpClient client = HttpClient.newHttpClient()) {
            int port = serving.files().port();
            assertThat(printed.toString(StandardCharsets.UTF_8)).contains("serving " + dir.toAbsolutePath()
                    + " on http://127.0.0.1:" + port + "/ (HTTP/1.1 and h2c), gzip");
            HttpResponse<String> range = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/hello.txt")).header("Range", "bytes=7-11").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(range.statusCode()).isEqualTo(206);
            assertThat(range.body()).isEqualTo("files");
            // the JDK client upgraded to h2c
            assertThat(printed.toString(StandardCharsets.UTF_8)).contains("\"GET /hello.txt HTTP/2.0\" 206 5");
            HttpResponse<String> directory = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(directory.statusCode()).isEqualTo(404); // no listing unless asked
        }
    }

    @Test
    void proxyForwardsAndCountsItsUpstreamConnections() throws Exception {
        try (FixtureServer upstream = FixtureServer.start(0)) {
            ProxyCommand command = new CommandLine(new ProxyCommand())
                    .parseArgs("--upstream", "http://127.0.0.1:" + upstream.port(), "--port", "0", "-v")
                    .commandSpec().commandLine().getCommand();
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            try (ProxyCommand.Running running = command.start(DrainPolicy.defaults(),
                    new PrintStream(printed, true, StandardCharsets.UTF_8));
                 HttpClient client = HttpClient.newHttpClient()) {
                for (int i = 0; i < 3; i++) {
                    HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(
                            "http://127.0.0.1:" + running.server().port() + "/json")).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertThat(response.body()).isEqualTo("{\"a\":1}\n");
                }
                assertThat(printed.toString(StandardCharsets.UTF_8)).contains("proxy listening on http://127.0.0.1:")
                        .contains("\"GET /json HTTP/2.0\" 200 8").contains("upstream-connections=1");
                assertThat(ProxyCommand.summary(running.proxy().stats()))
                        .isEqualTo("upstream connections opened: 1 for 3 requests (2 on a reused connection)");
            }
            assertThat(upstream.connectionsAccepted()).isEqualTo(1);
        }
    }

    @Test
    void misusedOptionsAreClearErrors() {
        CommandLine line = ShuttleCommand.commandLine();
        line.setErr(new java.io.PrintWriter(new ByteArrayOutputStream()));
        assertThat(line.execute("serve", "--listing", "--port", "0")).isEqualTo(2);
        assertThat(line.execute("proxy", "--upstream", "http://127.0.0.1:1", "--drain", "sometimes")).isEqualTo(2);
        assertThat(line.execute("proxy")).isEqualTo(2); // --upstream is required
    }
}
