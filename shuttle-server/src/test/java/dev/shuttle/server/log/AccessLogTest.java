package dev.shuttle.server.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.ExternalProcess;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.RawConnection;
import dev.shuttle.server.compress.Compression;
import dev.shuttle.server.files.FileServer;
import dev.shuttle.server.routing.Router;
import dev.shuttle.server.routing.StripPrefix;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccessLogTest {
    @TempDir
    Path root;

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Clock fixed = Clock.fixed(Instant.parse("2024-05-01T10:00:00Z"), ZoneOffset.UTC);

    @Test
    void oneLinePerRequestWithProtocolStatusBytesAndDuration() throws Exception {
        ExternalProcess.assumeInstalled("curl", "curl");
        Files.writeString(root.resolve("a.txt"), "x".repeat(36));
        Router router = new Router()
                .handle("/files/", StripPrefix.of("/files").wrap(FileServer.directory(root).build()))
                .handle("/fail", (request, response) -> {
                    throw new IllegalStateException("boom");
                })
                .handle("/q", (request, response) -> response.send("ok"))
                .use(AccessLog.builder().combined(true).sink(lines::add).clock(fixed).build(), Compression.gzip());
        try (HttpServer server = HttpServer.builder().handler(router).start()) {
            String base = "http://127.0.0.1:" + server.port();
            ExternalProcess.run(List.of("curl", "-s", "-A", "curl/test", "-e", "https://ref/", base + "/files/a.txt"));
            ExternalProcess.run(List.of("curl", "-s", "--http2-prior-knowledge", "-A", "ua", base + "/files/a.txt"));
            ExternalProcess.run(List.of("curl", "-s", "-I", base + "/files/a.txt"));
            ExternalProcess.run(List.of("curl", "-s", base + "/fail"));
            ExternalProcess.run(List.of("curl", "-s", base + "/missing"));
            ExternalProcess.run(List.of("curl", "-s", "-A", "evil\" \"injected", base + "/q?a=%22"));
        }
        assertThat(lines).hasSize(6);
        assertThat(lines.get(0)).matches("127\\.0\\.0\\.1 - - \\[01/May/2024:10:00:00 \\+0000\\] "
                + "\"GET /files/a\\.txt HTTP/1\\.1\" 200 36 \"https://ref/\" \"curl/test\" \\d+\\.\\d{3}");
        assertThat(lines.get(1)).contains("\"GET /files/a.txt HTTP/2.0\" 200 36 \"-\" \"ua\"");
        assertThat(lines.get(2)).contains("\"HEAD /files/a.txt HTTP/1.1\" 200 - ");
        assertThat(lines.get(3)).contains("\"GET /fail HTTP/1.1\" 500 - ");
        assertThat(lines.get(4)).contains("\"GET /missing HTTP/1.1\" 404 ");
        // A quote in a header cannot end the field: it is escaped, and the line keeps its shape.
        assertThat(lines.get(5)).contains("\"evil\\\" \\\"injected\"").contains("\"GET /q?a=%22 HTTP/1.1\" 200 2");
    }

    @Test
    void commonFormatHasNoRefererOrAgent() throws Exception {
        Router router = new Router().handle("/x", (request, response) -> response.send("abc"))
                .use(AccessLog.builder().sink(lines::add).clock(fixed).build());
        try (HttpServer server = HttpServer.builder().handler(router).start();
             RawConnection connection = new RawConnection(server)) {
            connection.send("GET /x HTTP/1.0\r\nUser-Agent: ua\r\nReferer: r\r\n\r\n");
            connection.readResponse();
        }
        assertThat(lines).singleElement().asString()
                .matches("127\\.0\\.0\\.1 - - \\[01/May/2024:10:00:00 \\+0000\\] "
                        + "\"GET /x HTTP/1\\.0\" 200 3 \\d+\\.\\d{3}");
    }

    @Test
    void controlAndNonAsciiBytesAreEscaped() {
        StringBuilder out = new StringBuilder();
        AccessLog.escape(out, "a\u0001b\u00e9\\\n");
        assertThat(out.toString()).isEqualTo("a\\x01b\\xc3\\xa9\\\\\\x0a");
    }
}
