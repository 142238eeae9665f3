package dev.shuttle.lab.reuse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.report.JsonReport;
import dev.shuttle.lab.report.ProgressSink;
import dev.shuttle.lab.report.ReuseTables;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code lab reuse --protocol h2c|h2}: every HTTP/2 client against the fixture, a few requests per cell. A client
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
                .contains("GOAWAYs the server sent before the client closed").contains("through a relay");
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
