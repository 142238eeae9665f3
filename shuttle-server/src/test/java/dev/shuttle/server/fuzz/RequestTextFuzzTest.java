package dev.shuttle.server.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.shuttle.server.FakeExchange;
import dev.shuttle.server.FakeExchange.Recorded;
import dev.shuttle.server.QueryParameters;
import dev.shuttle.server.compress.Compression;
import dev.shuttle.server.core.HttpDate;
import dev.shuttle.server.core.PathSegments;
import dev.shuttle.server.files.FileServer;
import dev.shuttle.server.routing.Router;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The text parsers a client reaches through request fields: routing patterns (the developer's, but parsed from text),
 * Range and the conditional fields (through the file server), Accept-Encoding (through compression), percent-decoded
 * paths and queries, HTTP dates. Whatever the text: a clear {@code IllegalArgumentException} where the API promises
 * one, else an answer with a status the file server may give, and a 206 whose body is exactly as long as it says.
 *
 * <p>Without {@code JAZZER_FUZZ} the seeds under {@code RequestTextFuzzTestInputs/} are replayed.
 */
class RequestTextFuzzTest {
    private static final Set<Integer> FILE_STATUSES = Set.of(200, 206, 301, 304, 400, 404, 412, 416);
    private static Path root;
    private static FileServer files;

    @BeforeAll
    static void files() throws IOException {
        root = Files.createTempDirectory("fuzz-files");
        Files.writeString(root.resolve("a.txt"), "0123456789".repeat(300));
        files = FileServer.directory(root).build();
    }

    @AfterAll
    static void clean() throws IOException {
        Files.deleteIfExists(root.resolve("a.txt"));
        Files.deleteIfExists(root);
    }

    @FuzzTest(maxDuration = "10s")
    void routerPatterns(FuzzedDataProvider data) throws Exception {
        Router router = new Router();
        for (int i = 0; i < 3 && data.remainingBytes() > 0; i++) {
            try {
                router.handle(data.consumeString(64), (request, response) -> response.send("ok"));
            } catch (IllegalArgumentException expected) {
                // malformed or conflicting: said so, nothing else
            }
        }
        String target = "/" + data.consumeRemainingAsAsciiString().replace(' ', '_').replace('?', '_');
        Recorded response = FakeExchange.serve(router, FakeExchange.request("GET", target, "Host", "h"));
        assertThat(response.status()).isIn(200, 301, 400, 404, 405);
    }

    @FuzzTest(maxDuration = "10s")
    void fileServerHeaders(FuzzedDataProvider data) throws Exception {
        String range = data.consumeString(80);
        String ifRange = data.consumeString(40);
        String ifNoneMatch = data.consumeString(40);
        String acceptEncoding = data.consumeRemainingAsString();
        Recorded response = FakeExchange.serve(Compression.gzip().wrap(files), FakeExchange.request("GET",
                "/a.txt", "Range", range, "If-Range", ifRange, "If-None-Match", ifNoneMatch,
                "Accept-Encoding", acceptEncoding));
        assertThat(response.status()).isIn(FILE_STATUSES);
        String contentRange = response.header("Content-Range");
        if (response.status() == 206 && contentRange != null && response.header("Content-Encoding") == null) {
            assertThat((long) response.bodyBytes().length).isEqualTo(response.declaredLength());
        }
    }

    @FuzzTest(maxDuration = "10s")
    void decoders(FuzzedDataProvider data) {
        String text = data.consumeRemainingAsString();
        QueryParameters.parse(text);
        QueryParameters.parseForm(text);
        HttpDate.parse(text);
        try {
            PathSegments.decode("/" + text);
        } catch (IllegalArgumentException expected) {
            // malformed percent-encoding or not UTF-8: said so
        }
    }
}
