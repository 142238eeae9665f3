package dev.shuttle.interop;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A client of ours on the Python {@code h2} package ({@code early_close.py}): one connection, streams one at a time
 * or 50 at once, every other body reset on its head (RST_STREAM CANCEL) and the rest ignored while their
 * flow-control credit goes back as DATA arrives.
 */
@Timeout(60)
class PythonH2Test {
    private static final String PYTHON = "/usr/bin/python3";

    @TempDir
    static Path dir;
    private static Path script;

    @BeforeAll
    static void findPythonH2() throws Exception {
        ExternalTool.require(PYTHON, "python3");
        ExternalTool.Result h2 = ExternalTool.run(List.of(PYTHON, "-c", "import h2"), Duration.ofSeconds(20),
                Map.of(), dir);
        assumeTrue(h2.exitCode() == 0, "Python's h2 package is not installed (Debian package python3-h2): skipped");
        script = ExternalTool.resource("early_close.py", dir);
    }

    static Stream<Arguments> cases() {
        return Workload.overEachTransport(Transport.H2C, Transport.TLS);
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void keepsOneConnection(Transport transport, Workload workload) throws Exception {
        try (InteropServer server = InteropServer.start(transport)) {
            List<String> command = new ArrayList<>(List.of(PYTHON, script.toString(),
                    "--port", Integer.toString(server.port()), "--path", server.url(workload.bodyBytes()).getPath(),
                    "--workers", Integer.toString(workload.workers()),
                    "--per-worker", Integer.toString(workload.perWorker())));
            if (transport == Transport.TLS) {
                command.add("--tls");
            }
            ExternalTool.Result result = ExternalTool.run(command, Duration.ofSeconds(45), Map.of(), dir);
            server.assertEarlyCloseContract("Python h2", workload, runOf(result));
        }
    }

    private static ClientRun runOf(ExternalTool.Result result) {
        if (result.exitCode() != 0) {
            return new ClientRun(0, 1, result.toString());
        }
        return new JsonLine(result.stdout()).toRun();
    }
}
