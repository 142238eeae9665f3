package dev.shuttle.lab.reuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.report.JsonReport;
import dev.shuttle.lab.report.ProgressSink;
import dev.shuttle.lab.report.ReuseTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code lab reuse --protocol h2c|h2 [--server jetty|netty|nginx]}: every HTTP/2 client against the fixture or a
 * peer server, a few requests per cell. A client
 * that answered over HTTP/1.1 would fail its calls, so zero errors says each spoke HTTP/2; the GOAWAY count is the
 * fixture's own and must be there, and zero for a handful of requests.
 */
@Timeout(120)
class Http2ReuseRunTest {
    private static final List<ReuseCase> CASES = List.of(ReuseCase.CL_2K, ReuseCase.JSON_CL);

    @Test
    void h2cRunsEveryClientThatHasPriorKnowledgeAndCountsGoAways() throws Exception {
        ReuseResult result = run(ReuseSettings.builder().protocol(ReuseProtocol.H2C));
        assertThat(result.settings().clients()).containsExactly(ClientKind.SHUTTLE_H2, ClientKind.OKHTTP,
                ClientKind.JETTY);
        assertEveryCellKeptItsConnection(result);
        assertThat(ReuseTables.render(result)).contains("(h2c, HTTP/2 with prior knowledge)")
                .contains("GOAWAYs the server sent before the client closed").contains("the fixture's own")
                .contains("(direct to the fixture)");
        JsonNode json = JsonReport.reuse(result);
        assertThat(json.get("parameters").get("protocol").asText()).isEqualTo("h2c");
        assertThat(json.get("cells")).allSatisfy(cell ->
                assertThat(cell.get("goAwaysBeforeClientClosed").asLong()).isZero());
    }

    @Test
    void h2RunsTheJdkClientToo() throws Exception {
        ReuseResult result = run(ReuseSettings.builder().protocol(ReuseProtocol.H2));
        assertThat(result.settings().tls()).isTrue();
        assertThat(result.settings().clients()).containsExactly(ClientKind.SHUTTLE_H2, ClientKind.OKHTTP,
                ClientKind.JDK, ClientKind.JETTY);
        assertEveryCellKeptItsConnection(result);
        for (CellSummary cell : result.summaries()) {
            assertThat(cell.tlsHandshakes()).as(cell.client() + " × " + cell.reuseCase()).isEqualTo(1);
        }
        assertThat(ReuseTables.render(result)).contains("(HTTP/2 over TLS, ALPN h2)")
                .contains("h2 through ALPN");
    }

    @Test
    void anHttp1RunCountsNoGoAways() throws Exception {
        ReuseResult result = run(ReuseSettings.builder().clients(List.of(ClientKind.SHUTTLE)));
        assertThat(result.summaries()).allSatisfy(cell -> assertThat(cell.goAways()).isEqualTo(-1));
        assertThat(ReuseTables.render(result)).doesNotContain("GOAWAY");
    }

    @ParameterizedTest(name = "{0} over {1}")
    @CsvSource({"jetty, h2c", "netty, h2", "nginx, h2"})
    void peerServersServeEveryHttp2ClientTheirConnectionsCountedAtTheRelay(String server, String protocol)
            throws Exception {
        ReuseServer peer = ReuseServer.byName(server);
        Assumptions.assumeTrue(peer != ReuseServer.NGINX || Files.isExecutable(Path.of("/usr/sbin/nginx")),
                "nginx is not installed (Debian package nginx-light): skipped");
        ReuseResult result = run(ReuseSettings.builder().protocol(ReuseProtocol.byName(protocol)).server(peer));
        for (CellSummary cell : result.summaries()) {
            String name = peer + ": " + cell.client().cliName() + " × " + cell.reuseCase().id();
            assertThat(cell.errors()).as(name).isZero();
            assertThat(cell.newConnections()).as(name).isEqualTo(1);
            assertThat(cell.serverBytes()).as(name + ": bytes the relay passed on").isPositive();
            assertThat(cell.goAways()).as(name + ": not counted").isEqualTo(-1);
        }
        assertThat(ReuseTables.render(result)).contains("against " + peer.label())
                .contains("through the relay, which counts the server's connections")
                .doesNotContain("GOAWAYs the server sent");
    }

    @Test
    void aPeerServesOnlyTheCasesThatNeedNoTimingFromTheServer() {
        assertThat(ReuseSettings.builder().protocol(ReuseProtocol.H2).server(ReuseServer.NGINX).build().cases())
                .containsExactly(ReuseCase.CL_1K, ReuseCase.CL_2K, ReuseCase.CL_64K, ReuseCase.CL_200K,
                        ReuseCase.CL_256K_MINUS_1, ReuseCase.CL_256K_PLUS_1, ReuseCase.CL_1M, ReuseCase.JSON_CL,
                        ReuseCase.READ_TO_EOF);
        assertThatThrownBy(() -> ReuseSettings.builder().protocol(ReuseProtocol.H2C).server(ReuseServer.JETTY)
                .cases(List.of(ReuseCase.PAUSE_10MS)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs the fixture's timing");
        assertThatThrownBy(() -> ReuseSettings.builder().protocol(ReuseProtocol.H2).server(ReuseServer.NGINX)
                .cases(List.of(ReuseCase.CHUNKED_1K)).build())
                .hasMessageContaining("nginx sends static files with their length");
        assertThatThrownBy(() -> ReuseSettings.builder().server(ReuseServer.NETTY).build())
                .hasMessageContaining("serves HTTP/2 only");
    }

    private static ReuseResult run(ReuseSettings.Builder builder) throws Exception {
        return new ReuseExperiment(builder.cases(CASES).requests(5).rounds(1).warmup(2).build(), ProgressSink.NONE)
                .run();
    }

    /** Five sequential requests on HTTP/2: one connection, no failed call, no GOAWAY before the client closed. */
    private static void assertEveryCellKeptItsConnection(ReuseResult result) {
        assertThat(result.summaries()).hasSize(result.settings().clients().size() * CASES.size());
        for (CellSummary cell : result.summaries()) {
            String name = cell.client().cliName() + " × " + cell.reuseCase().id();
            CellMeasurement round = result.measurements().stream()
                    .filter(m -> m.client() == cell.client() && m.reuseCase() == cell.reuseCase()).findFirst()
                    .orElseThrow();
            assertThat(cell.errors()).as(name + ": " + round.firstError()).isZero();
            assertThat(cell.goAways()).as(name).isZero();
            assertThat(cell.newConnections()).as(name).isEqualTo(1);
        }
    }
}
