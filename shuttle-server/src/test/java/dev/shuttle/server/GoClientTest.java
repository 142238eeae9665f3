package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.compress.Compression;
import dev.shuttle.server.files.FileServer;
import dev.shuttle.server.routing.Router;
import dev.shuttle.server.routing.StripPrefix;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Go's net/http client against the router, the file server, compression and streaming: a small Go program of the
 * tests' resources, run with {@code go run}. Skipped when Go is not installed.
 */
class GoClientTest {
    @TempDir
    Path dir;

    @Test
    void goNetHttpSeesWhatTheOtherClientsSee() throws Exception {
        ExternalProcess.assumeInstalled("go", "golang-go");
        Files.writeString(dir.resolve("hello.txt"), "hello from files\n");
        Path program = dir.resolve("goclient.go");
        try (InputStream source = GoClientTest.class.getResourceAsStream("goclient.go")) {
            Files.copy(source, program);
        }
        Router router = new Router()
                .handle("GET /items/{id}", (request, response) -> response.send(request.pathValue("id")))
                .handle("/files/", StripPrefix.of("/files").wrap(FileServer.directory(dir).build()))
                .handle("/text", (request, response) -> response.send("go ".repeat(1000)))
                .handle("/events", (request, response) -> {
                    response.header("Content-Type", "text/event-stream");
                    response.body().write("data: hello\n\n".getBytes());
                    response.flush();
                    request.cancellation().await(); // until Go closes the body
                })
                .use(Compression.gzip());
        try (HttpServer server = HttpServer.builder().handler(router).start()) {
            ProcessBuilder go = new ProcessBuilder("go", "run", "goclient.go", "-base",
                    "http://127.0.0.1:" + server.port()).directory(dir.toFile());
            go.environment().put("GO111MODULE", "off");
            go.environment().putIfAbsent("GOCACHE", System.getProperty("java.io.tmpdir") + "/shuttle-test-gocache");
            Process process = go.redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            assertThat(process.waitFor()).as(output).isZero();
            assertThat(output.lines().toList()).containsExactly(
                    "item 200 a b",
                    "range 206 bytes 0-4/17 hello",
                    "revalidate 304",
                    "gzip uncompressed=true length=3000",
                    "event data: hello",
                    "reused 4");
        }
    }

}
