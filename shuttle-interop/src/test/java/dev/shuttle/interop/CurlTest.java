package dev.shuttle.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * curl fetching every URL of a run in one invocation (from a config file), h2 over TLS ({@code --http2 -k});
 * concurrent runs with {@code --parallel --parallel-max 50}, which waits for the first connection and multiplexes on
 * it. curl reads every body to its end (it has no way to stop a transfer early that does not also count as a failed
 * one), so this is the polite client the others are measured beside.
 *
 * <p>Over TLS only: curl 7.88.1 (Debian 12's) cannot run these over h2c. With {@code --http2-prior-knowledge} it
 * fails every transfer after the first on the connection ("Error in the HTTP2 framing layer", against nginx as
 * well); with {@code --http2}'s {@code Upgrade: h2c} it fails a body of 64 KiB or more that follows the 101
 * ("connection buffer size is too small to store data following HTTP Upgrade response header"), and in parallel it upgrades a
 * connection per transfer.
 */
@Timeout(60)
class CurlTest {
    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        return Workload.overEachTransport(Transport.TLS);
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void keepsOneConnection(Transport transport, Workload workload) throws Exception {
        Path curl = ExternalTool.require("curl", "curl");
        try (InteropServer server = InteropServer.start(transport)) {
            Path config = dir.resolve("urls.txt");
            StringBuilder urls = new StringBuilder();
            for (int i = 0; i < workload.requests(); i++) {
                urls.append("url = \"").append(server.url(workload.bodyBytes())).append("\"\noutput = \"/dev/null\"\n");
            }
            Files.writeString(config, urls);
            List<String> command = new ArrayList<>(List.of(curl.toString(), "-s", "-S", "--http2", "-k",
                    "-K", config.toString(), "-w", "%{http_code} %{http_version}\\n"));
            if (workload.concurrent()) {
                command.addAll(List.of("--parallel", "--parallel-max", Integer.toString(workload.workers())));
            }
            ExternalTool.Result result = ExternalTool.run(command, Duration.ofSeconds(45), Map.of(), dir);
            server.assertEarlyCloseContract("curl", workload, countLines(result, "200 2"));
        }
    }

    /** One line per transfer; those other than {@code ok} are failures, and so is a missing line. */
    static ClientRun countLines(ExternalTool.Result result, String ok) {
        List<String> lines = result.stdout().lines().toList();
        int failures = (int) lines.stream().filter(line -> !line.equals(ok)).count();
        String first = result.exitCode() != 0 || failures > 0 ? result.toString() : null;
        return new ClientRun(lines.size(), failures + (result.exitCode() != 0 && failures == 0 ? 1 : 0), first);
    }
}
