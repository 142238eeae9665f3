package dev.shuttle.interop;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * nghttp (nghttp2's client) with every URI of a run on its command line, {@code -n} discarding the bodies and
 * {@code -s} listing each response's status. nghttp opens a stream for every URI at once, as many as the server
 * allows, so it runs the concurrent workloads only (with more streams in flight than their 50 workers): each new
 * stream opens the moment an earlier one's last frame arrived, which is when the server's handler for it may still be
 * returning.
 */
@Timeout(60)
class NghttpTest {
    /** A line of {@code -s}'s table: id, responseEnd, requestStart, process, code, size, path. */
    private static final Pattern STATUS_LINE =
            Pattern.compile("^\\s*\\d+\\s+\\+\\S+\\s+\\+\\S+\\s+\\S+\\s+(\\d{3})\\s");

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        return Workload.concurrentOverEachTransport(Transport.H2C, Transport.TLS);
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void keepsOneConnection(Transport transport, Workload workload) throws Exception {
        Path nghttp = ExternalTool.require("nghttp", "nghttp2-client");
        try (InteropServer server = InteropServer.start(transport)) {
            List<String> command = new ArrayList<>(List.of(nghttp.toString(), "-n", "-s", "-y", "-t", "20"));
            for (int i = 0; i < workload.requests(); i++) {
                command.add(server.url(workload.bodyBytes()) + "?i=" + i); // nghttp fetches a URI only once
            }
            ExternalTool.Result result = ExternalTool.run(command, Duration.ofSeconds(45), Map.of(), dir);
            server.assertEarlyCloseContract("nghttp", workload, runOf(result, workload.requests()));
        }
    }

    /**
     * Every URI given counts as a request; one without a line of 200 in the statistics failed. nghttp does not retry
     * a stream the server refused: it says "Some requests were not processed" and still exits with 0.
     */
    private static ClientRun runOf(ExternalTool.Result result, int uris) {
        int ok = 0;
        String firstFailure = null;
        for (String line : result.stdout().lines().toList()) {
            Matcher m = STATUS_LINE.matcher(line);
            if (m.find()) {
                if (m.group(1).equals("200")) {
                    ok++;
                } else if (firstFailure == null) {
                    firstFailure = line.strip();
                }
            }
        }
        if (ok < uris) {
            String notProcessed = result.stderr().lines().filter(l -> l.contains("not processed")).findFirst()
                    .orElse(null);
            firstFailure = notProcessed != null ? notProcessed + " (streams the server refused or reset)"
                    : firstFailure != null ? firstFailure : result.toString();
        }
        return new ClientRun(uris, uris - ok, firstFailure);
    }
}
