package dev.shuttle.server.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.HttpServer;
import dev.shuttle.server.RawConnection;
import dev.shuttle.server.RawConnection.RawResponse;
import dev.shuttle.server.routing.Router;
import dev.shuttle.server.routing.StripPrefix;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Requests that try to leave the served directory, each refused: the classic forms and the encodings behind public
 * file-server CVEs. The served tree sits next to a secret file; no answer may contain the secret. Each target is sent
 * straight to the file server and through a router with a prefix, as it is usually mounted.
 */
class TraversalTest {
    private static final String SECRET = "TOP-SECRET-CONTENT";
    private static Path base;
    private static HttpServer direct;
    private static HttpServer routed;

    @BeforeAll
    static void start() throws IOException {
        base = Files.createTempDirectory("traversal");
        Path served = Files.createDirectories(base.resolve("www"));
        Files.writeString(base.resolve("secret.txt"), SECRET);
        Files.writeString(served.resolve("ok.txt"), "fine");
        Files.createDirectories(served.resolve("sub"));
        Files.writeString(served.resolve("sub/inner.txt"), "inner");
        Files.createSymbolicLink(served.resolve("out.txt"), base.resolve("secret.txt"));
        Files.createSymbolicLink(served.resolve("outdir"), base);
        Files.createSymbolicLink(served.resolve("in.txt"), served.resolve("ok.txt"));
        FileServer files = FileServer.directory(served).listing(true).build();
        direct = HttpServer.builder().handler(files).start();
        routed = HttpServer.builder().handler(new Router().handle("/static/", StripPrefix.of("/static").wrap(files)))
                .start();
    }

    @AfterAll
    static void stop() throws IOException {
        direct.close();
        routed.close();
        try (Stream<Path> paths = Files.walk(base)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    static Stream<Arguments> attacks() {
        return Stream.of(
                Arguments.of("/../secret.txt", "plain dot-dot"),
                Arguments.of("/sub/../../secret.txt", "dot-dot past the root"),
                Arguments.of("/%2e%2e/secret.txt", "encoded dots"),
                Arguments.of("/%2E%2E/secret.txt", "encoded dots, upper case"),
                Arguments.of("/.%2e/secret.txt", "CVE-2021-41773 (Apache 2.4.49)"),
                Arguments.of("/%%32%65%%32%65/secret.txt", "CVE-2021-42013 (Apache 2.4.50, double encoding)"),
                Arguments.of("/..%2fsecret.txt", "encoded slash after dots"),
                Arguments.of("/%2e%2e%2fsecret.txt", "fully encoded dot-dot-slash"),
                Arguments.of("/sub%2f..%2f..%2fsecret.txt", "encoded slashes inside a segment"),
                Arguments.of("/..%5csecret.txt", "encoded backslash (CVE-2018-1271, Spring on Windows)"),
                Arguments.of("/..\\secret.txt", "raw backslash"),
                Arguments.of("/%c0%ae%c0%ae/secret.txt", "overlong UTF-8 dots (IIS, Tomcat CVE-2008-2938)"),
                Arguments.of("/%c0%2e%c0%2e/secret.txt", "overlong UTF-8, mixed"),
                Arguments.of("/%u002e%u002e/secret.txt", "IIS %u encoding (Jetty CVE-2021-34429)"),
                Arguments.of("/%2e/%2e%2e/secret.txt", "encoded dot segment (Jetty CVE-2021-28164)"),
                Arguments.of("/ok.txt%00.html", "NUL byte"),
                Arguments.of("/%00/../secret.txt", "NUL then dot-dot"),
                Arguments.of("/out.txt", "symbolic link out of the root"),
                Arguments.of("/outdir/secret.txt", "directory link out of the root"),
                Arguments.of("/outdir/", "listing through a link out of the root"),
                Arguments.of("//secret.txt", "double slash"),
                Arguments.of("/....//secret.txt", "four dots"),
                Arguments.of("/..;/secret.txt", "path parameter (Tomcat CVE-2007-0450 style)"),
                Arguments.of("/%252e%252e/secret.txt", "double-encoded dots (decoded once only)"),
                Arguments.of("/file:///etc/passwd", "scheme in the path"),
                Arguments.of(base.resolve("secret.txt").toString(), "absolute file system path"));
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("attacks")
    void traversalIsRefused(String target, String what) throws Exception {
        for (HttpServer server : new HttpServer[] {direct, routed}) {
            String path = server == routed ? "/static" + target : target;
            RawResponse response = get(server, path);
            assertThat(response.status()).as(what + " via " + path).isIn(301, 400, 404);
            assertThat(response.bodyText()).as(what).doesNotContain(SECRET);
            if (response.status() == 301) { // a router cleaning the path: follow it once, still nothing
                RawResponse followed = get(server, response.header("Location"));
                assertThat(followed.bodyText()).as(what + " after the redirect").doesNotContain(SECRET);
            }
        }
    }

    @Test
    void encodedTraversalIsA400NotA404() throws Exception {
        assertThat(get(direct, "/%2e%2e/secret.txt").status()).isEqualTo(400);
        assertThat(get(direct, "/..%2fsecret.txt").status()).isEqualTo(400);
        assertThat(get(direct, "/%c0%ae%c0%ae/secret.txt").status()).isEqualTo(400);
        assertThat(get(direct, "/ok.txt%00").status()).isEqualTo(400);
    }

    @Test
    void linksWithinTheRootAndOrdinaryFilesStillWork() throws Exception {
        assertThat(get(direct, "/in.txt").bodyText()).isEqualTo("fine");
        assertThat(get(direct, "/sub/inner.txt").bodyText()).isEqualTo("inner");
        assertThat(get(routed, "/static/ok.txt").bodyText()).isEqualTo("fine");
        assertThat(get(direct, "/").bodyText()).contains("ok.txt").doesNotContain("secret");
    }

    private static RawResponse get(HttpServer server, String target) throws IOException {
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET " + target + " HTTP/1.1\r\nHost: t\r\n\r\n");
            return connection.readResponse();
        }
    }
}
