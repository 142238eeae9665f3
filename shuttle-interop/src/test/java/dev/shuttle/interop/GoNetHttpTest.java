package dev.shuttle.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Go's standard {@code net/http} client ({@code goclient/main.go}, built once per run with the installed Go), over
 * TLS with ALPN h2, closing each body with {@code resp.Body.Close()} before reading any of it: Go resets the stream
 * and hands the unread bytes' flow-control credit back in small WINDOW_UPDATEs, one per request. Over TLS only:
 * Go's standard library speaks h2c only from Go 1.24 on, and {@code golang.org/x/net/http2} is not at hand offline.
 */
@Timeout(120)
class GoNetHttpTest {
    @TempDir
    static Path dir;
    private static Path client;

    @BeforeAll
    static void build() throws Exception {
        Path go = ExternalTool.require("go", "golang-go");
        Path source = dir.resolve("goclient");
        Files.createDirectories(source);
        ExternalTool.resource("goclient/main.go", source);
        client = dir.resolve("earlyclose");
        // A cache under target/ keeps the standard library built between runs; no cgo, so no C compiler is needed.
        Path cache = Path.of("target", "go-build-cache").toAbsolutePath();
        ExternalTool.Result built = ExternalTool.run(List.of(go.toString(), "build", "-o", client.toString(),
                        "main.go"), Duration.ofSeconds(100),
                Map.of("GOCACHE", cache.toString(), "GOPATH", dir.resolve("gopath").toString(), "CGO_ENABLED", "0",
                        "GO111MODULE", "off", "GOFLAGS", ""), source);
        assertThat(built.exitCode()).as("go build: %s", built).isZero();
    }

    static Stream<Arguments> cases() {
        return Workload.overEachTransport(Transport.TLS);
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void keepsOneConnection(Transport transport, Workload workload) throws Exception {
        try (InteropServer server = InteropServer.start(transport)) {
            ExternalTool.Result result = ExternalTool.run(List.of(client.toString(),
                    "-url", server.url(workload.bodyBytes()).toString(),
                    "-workers", Integer.toString(workload.workers()),
                    "-per-worker", Integer.toString(workload.perWorker())), Duration.ofSeconds(45), Map.of(), dir);
            ClientRun run = result.exitCode() == 0 ? new JsonLine(result.stdout()).toRun()
                    : new ClientRun(0, 1, result.toString());
            server.assertEarlyCloseContract("Go net/http", workload, run);
        }
    }
}
