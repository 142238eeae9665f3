package dev.shuttle.server.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.HttpServer;
import dev.shuttle.server.RawConnection;
import dev.shuttle.server.RawConnection.RawResponse;
import dev.shuttle.server.core.HttpDate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file server's answers over the wire: types, validators, conditional requests, ranges, directories. */
class FileServerTest {
    @TempDir
    Path root;
    private HttpServer server;
    private static final String TEXT = "0123456789abcdefghijklmnopqrstuvwxyz";

    @BeforeEach
    void start() throws IOException {
        Files.writeString(root.resolve("a.txt"), TEXT);
        Files.writeString(root.resolve("page.html"), "<p>hi</p>");
        Files.write(root.resolve("data.bin"), new byte[] {1, 2, 3});
        Files.writeString(root.resolve("empty.css"), "");
        Files.setLastModifiedTime(root.resolve("a.txt"), FileTime.from(Instant.parse("2024-05-01T10:00:00Z")));
        Files.createDirectories(root.resolve("docs/inner"));
        Files.writeString(root.resolve("docs/index.html"), "<h1>docs</h1>");
        Files.writeString(root.resolve("docs/inner/x.json"), "{}");
        server = HttpServer.builder().handler(FileServer.directory(root).build()).start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private RawResponse get(String target, String... fields) throws IOException {
        try (RawConnection connection = new RawConnection(server)) {
            StringBuilder request = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: t\r\n");
            for (int i = 0; i < fields.length; i += 2) {
                request.append(fields[i]).append(": ").append(fields[i + 1]).append("\r\n");
            }
            connection.send(request.append("\r\n").toString());
            return connection.readResponse();
        }
    }

    @Test
    void aFileComesWithItsTypeLengthAndValidators() throws Exception {
        RawResponse response = get("/a.txt");
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.bodyText()).isEqualTo(TEXT);
        assertThat(response.header("Content-Type")).isEqualTo("text/plain; charset=utf-8");
        assertThat(response.header("Content-Length")).isEqualTo("36");
        assertThat(response.header("Last-Modified")).isEqualTo("Wed, 01 May 2024 10:00:00 GMT");
        assertThat(response.header("ETag")).matches("\"[0-9a-f]+-24\"");
        assertThat(response.header("Accept-Ranges")).isEqualTo("bytes");
        assertThat(response.header("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(get("/page.html").header("Content-Type")).isEqualTo("text/html; charset=utf-8");
        assertThat(get("/data.bin").header("Content-Type")).isEqualTo("application/octet-stream");
        RawResponse empty = get("/empty.css");
        assertThat(empty.header("Content-Length")).isEqualTo("0");
        assertThat(empty.body()).isEmpty();
    }

    @Test
    void headHasTheHeadersAndNoBody() throws Exception {
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("HEAD /a.txt HTTP/1.1\r\nHost: t\r\n\r\n");
            RawResponse response = connection.readHeadResponse();
            assertThat(response.header("Content-Length")).isEqualTo("36");
            assertThat(connection.get("/data.bin").body()).containsExactly(1, 2, 3); // nothing left in between
        }
    }

    @Test
    void conditionalRequests() throws Exception {
        String etag = get("/a.txt").header("ETag");
        assertThat(get("/a.txt", "If-None-Match", etag).status()).isEqualTo(304);
        assertThat(get("/a.txt", "If-None-Match", "\"other\", W/" + etag).status()).isEqualTo(304); // weak compare
        assertThat(get("/a.txt", "If-None-Match", "*").status()).isEqualTo(304);
        assertThat(get("/a.txt", "If-None-Match", "\"other\"").status()).isEqualTo(200);
        assertThat(get("/a.txt", "If-Modified-Since", "Wed, 01 May 2024 10:00:00 GMT").status()).isEqualTo(304);
        assertThat(get("/a.txt", "If-Modified-Since", "Wed, 01 May 2024 09:59:59 GMT").status()).isEqualTo(200);
        assertThat(get("/a.txt", "If-Modified-Since", "Wednesday, 01-May-24 10:00:00 GMT").status())
                .isEqualTo(304); // RFC 850 form
        assertThat(get("/a.txt", "If-Modified-Since", "Wed May  1 10:00:00 2024").status()).isEqualTo(304); // asctime
        // If-None-Match wins over If-Modified-Since
        assertThat(get("/a.txt", "If-None-Match", "\"other\"", "If-Modified-Since",
                "Wed, 01 May 2024 10:00:00 GMT").status()).isEqualTo(200);
        RawResponse notModified = get("/a.txt", "If-None-Match", etag);
        assertThat(notModified.header("ETag")).isEqualTo(etag);
        assertThat(notModified.body()).isEmpty();
        assertThat(get("/a.txt", "If-Match", "\"other\"").status()).isEqualTo(412);
        assertThat(get("/a.txt", "If-Match", "W/" + etag).status()).isEqualTo(412); // If-Match compares strongly
        assertThat(get("/a.txt", "If-Match", etag).status()).isEqualTo(200);
        assertThat(get("/a.txt", "If-Unmodified-Since", "Tue, 30 Apr 2024 00:00:00 GMT").status()).isEqualTo(412);
        assertThat(get("/a.txt", "If-Unmodified-Since", "not a date").status()).isEqualTo(200);
    }

    @Test
    void singleRanges() throws Exception {
        RawResponse middle = get("/a.txt", "Range", "bytes=10-15");
        assertThat(middle.status()).isEqualTo(206);
        assertThat(middle.header("Content-Range")).isEqualTo("bytes 10-15/36");
        assertThat(middle.bodyText()).isEqualTo("abcdef");
        assertThat(get("/a.txt", "Range", "bytes=30-").bodyText()).isEqualTo("uvwxyz");
        assertThat(get("/a.txt", "Range", "bytes=-3").bodyText()).isEqualTo("xyz");
        assertThat(get("/a.txt", "Range", "bytes=-100").bodyText()).isEqualTo(TEXT);
        assertThat(get("/a.txt", "Range", "bytes=30-999").header("Content-Range")).isEqualTo("bytes 30-35/36");
        assertThat(get("/a.txt", "Range", "items=0-1").status()).isEqualTo(200); // unknown unit: ignored
    }

    @Test
    void unsatisfiableRangesAre416WithTheSize() throws Exception {
        for (String range : new String[] {"bytes=36-", "bytes=100-200", "bytes=5-2", "bytes=x-1", "bytes=",
                "bytes=-0"}) {
            RawResponse response = get("/a.txt", "Range", range);
            assertThat(response.status()).as(range).isEqualTo(416);
            assertThat(response.header("Content-Range")).as(range).isEqualTo("bytes */36");
        }
    }

    @Test
    void multipleRangesAreMultipart() throws Exception {
        RawResponse response = get("/a.txt", "Range", "bytes=0-1, 10-11,-2");
        assertThat(response.status()).isEqualTo(206);
        String type = response.header("Content-Type");
        assertThat(type).startsWith("multipart/byteranges; boundary=");
        String boundary = type.substring(type.indexOf('=') + 1);
        assertThat(response.bodyText()).isEqualTo(
                "--" + boundary + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Range: bytes 0-1/36\r\n\r\n01"
                + "\r\n--" + boundary + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Range: bytes 10-11/36"
                + "\r\n\r\nab"
                + "\r\n--" + boundary + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Range: bytes 34-35/36"
                + "\r\n\r\nyz"
                + "\r\n--" + boundary + "--\r\n");
        assertThat(Integer.parseInt(response.header("Content-Length"))).isEqualTo(response.body().length);
    }

    @Test
    void rangesAskingForMoreThanTheWholeAreIgnored() throws Exception {
        // Overlapping ranges that add up past the size (the Apache Killer pattern): the whole file, once.
        String many = "bytes=0-30,1-31,2-32";
        assertThat(get("/a.txt", "Range", many).status()).isEqualTo(200);
        assertThat(get("/a.txt", "Range", "bytes=" + "0-0,".repeat(ByteRanges.MAX_RANGES) + "1-1").status())
                .isEqualTo(200);
    }

    @Test
    void ifRangeDecidesWhetherTheRangeApplies() throws Exception {
        String etag = get("/a.txt").header("ETag");
        assertThat(get("/a.txt", "Range", "bytes=0-1", "If-Range", etag).status()).isEqualTo(206);
        assertThat(get("/a.txt", "Range", "bytes=0-1", "If-Range", "\"stale\"").status()).isEqualTo(200);
        assertThat(get("/a.txt", "Range", "bytes=0-1", "If-Range", "Wed, 01 May 2024 10:00:00 GMT").status())
                .isEqualTo(206);
        assertThat(get("/a.txt", "Range", "bytes=0-1", "If-Range", "Wed, 01 May 2024 10:00:01 GMT").status())
                .isEqualTo(200);
    }

    @Test
    void directoriesRedirectToTheirSlashAndServeTheirIndex() throws Exception {
        RawResponse redirect = get("/docs?x=1");
        assertThat(redirect.status()).isEqualTo(301);
        assertThat(redirect.header("Location")).isEqualTo("docs/?x=1");
        assertThat(get("/docs/").bodyText()).isEqualTo("<h1>docs</h1>");
        assertThat(get("/docs/index.html").header("Location")).isEqualTo("./");
        assertThat(get("/a.txt/").header("Location")).isEqualTo("../a.txt");
        assertThat(get("/docs/inner/").status()).isEqualTo(404); // no index, listing off
        Files.createDirectories(root.resolve("my dir"));
        assertThat(get("/my%20dir").header("Location")).isEqualTo("my%20dir/"); // a name, encoded again
        assertThat(get("/missing.txt").status()).isEqualTo(404);
    }

    @Test
    void otherMethodsAre405() throws Exception {
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("POST /a.txt HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n");
            RawResponse response = connection.readResponse();
            assertThat(response.status()).isEqualTo(405);
            assertThat(response.header("Allow")).isEqualTo("GET, HEAD");
        }
    }

    @Test
    void aListingWhenEnabledEscapesNames() throws Exception {
        Files.writeString(root.resolve("docs/inner/<b>&\"x\".txt"), "odd");
        try (HttpServer listing = HttpServer.builder()
                .handler(FileServer.directory(root).listing(true).build()).start()) {
            try (RawConnection connection = new RawConnection(listing)) {
                RawResponse response = connection.get("/docs/inner/");
                assertThat(response.header("Content-Type")).isEqualTo("text/html; charset=utf-8");
                assertThat(response.bodyText())
                        .contains("<a href=\"%3Cb%3E%26%22x%22.txt\">&lt;b&gt;&amp;&#34;x&#34;.txt</a>")
                        .contains("<a href=\"x.json\">x.json</a>")
                        .doesNotContain("<b>");
            }
        }
    }

    @Test
    void httpDatesParseInAllThreeForms() {
        long expected = Instant.parse("1994-11-06T08:49:37Z").getEpochSecond();
        assertThat(HttpDate.parse("Sun, 06 Nov 1994 08:49:37 GMT")).isEqualTo(expected);
        assertThat(HttpDate.parse("Sunday, 06-Nov-94 08:49:37 GMT")).isEqualTo(expected);
        assertThat(HttpDate.parse("Sun Nov  6 08:49:37 1994")).isEqualTo(expected);
        assertThat(HttpDate.parse("yesterday")).isEqualTo(Long.MIN_VALUE);
        assertThat(HttpDate.parse("Sun, 32 Nov 1994 08:49:37 GMT")).isEqualTo(Long.MIN_VALUE);
        assertThat(HttpDate.format(expected)).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
    }

    @Test
    void theClassPathServesResourcesAndNeverItsRoot() throws Exception {
        try (HttpServer resources = HttpServer.builder()
                .handler(FileServer.classpath("static", getClass().getClassLoader()).build()).start();
             RawConnection connection = new RawConnection(resources)) {
            RawResponse css = connection.get("/site.css");
            assertThat(css.bodyText()).isEqualTo("body { color: red }\n");
            assertThat(css.header("Content-Type")).isEqualTo("text/css; charset=utf-8");
            assertThat(connection.get("/").bodyText()).isEqualTo("<h1>classpath index</h1>\n");
            assertThat(connection.get("/sub").header("Location")).isEqualTo("sub/");
            assertThat(connection.get("/sub/note.txt").bodyText()).isEqualTo("nested\n");
            assertThat(connection.get("/sub/note.txt").header("ETag")).isNotNull();
            assertThat(connection.get("/nothing.txt").status()).isEqualTo(404);
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> FileServer.classpath("/").build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aJarOnTheClassPathIsServedAsAStreamWithRanges() throws Exception {
        Path jar = root.resolve("site.jar");
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new java.util.jar.JarEntry("web/"));
            out.closeEntry();
            out.putNextEntry(new java.util.jar.JarEntry("web/app.js"));
            out.write("console.log('hi')".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        try (var loader = new java.net.URLClassLoader(new java.net.URL[] {jar.toUri().toURL()}, null);
             HttpServer resources = HttpServer.builder().handler(FileServer.classpath("web", loader).build()).start();
             RawConnection connection = new RawConnection(resources)) {
            RawResponse script = connection.get("/app.js");
            assertThat(script.bodyText()).isEqualTo("console.log('hi')");
            assertThat(script.header("Content-Type")).isEqualTo("text/javascript; charset=utf-8");
            connection.send("GET /app.js HTTP/1.1\r\nHost: t\r\nRange: bytes=8-10\r\n\r\n");
            assertThat(connection.readResponse().bodyText()).isEqualTo("log");
        }
    }
}
