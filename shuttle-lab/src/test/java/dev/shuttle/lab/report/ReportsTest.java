package dev.shuttle.lab.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.reuse.ReuseCase;
import dev.shuttle.lab.reuse.ReuseResult;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class ReportsTest {
    private final ReuseResult result = SampleResults.reuse(List.of(ClientKind.values()),
            List.of(ReuseCase.values()), 3);

    @Test
    void terminalTablesShowEveryCaseAndClientWithPublishedRows() {
        String text = ReuseTables.render(result);
        for (ReuseCase c : ReuseCase.values()) {
            assertThat(text).contains(c.label());
        }
        for (ClientKind k : ClientKind.values()) {
            assertThat(text).contains(k.cliName());
        }
        assertThat(text).contains("Go, published †")
                .contains("Published figures from the seeds, not measurements")
                .contains("26")              // Go 1.27's 256 KiB - 1 figure
                .contains("49 of 50")        // Go 1.26.9's late end marker
                .contains("!3");             // failed calls (one per round here) are marked
    }

    @Test
    void publishedRowsAreLeftOutWhenNeitherGoLikePolicyIsAColumn() {
        ReuseResult peersOnly = SampleResults.reuse(List.of(ClientKind.JDK, ClientKind.OKHTTP),
                List.of(ReuseCase.CL_1K), 1);
        assertThat(ReuseTables.render(peersOnly)).doesNotContain("published †");
    }

    @Test
    void connectionCellShowsTheSpreadOnlyWhenRoundsDiffer() {
        ReuseResult oneRound = SampleResults.reuse(List.of(ClientKind.SHUTTLE), List.of(ReuseCase.CL_2K), 1);
        assertThat(ReuseTables.connections(oneRound.summaries().getFirst())).matches("\\d+");
        assertThat(ReuseTables.connections(result.cell(ReuseCase.CL_2K, ClientKind.SHUTTLE)))
                .matches("\\d+ \\(\\d+-\\d+\\)");
    }

    @Test
    void tlsRunsAddHandshakeTablesToEveryReport() throws Exception {
        ReuseResult tls = SampleResults.reuse(List.of(ClientKind.SHUTTLE, ClientKind.JDK),
                List.of(ReuseCase.CL_2K, ReuseCase.CONNECTION_CLOSE), 3, true);
        String text = ReuseTables.render(tls);
        assertThat(text).contains("(HTTP/1.1 over TLS)").contains("TLS handshakes per cell, full and resumed")
                .contains("Of those, resumed handshakes").contains("trusts its authority alone");
        JsonNode json = new ObjectMapper().readTree(JsonReport.reuse(tls).toString());
        assertThat(json.get("parameters").get("tls").asBoolean()).isTrue();
        for (JsonNode cell : json.get("cells")) {
            assertThat(cell.get("tlsHandshakes").get("median").asLong())
                    .isEqualTo(cell.get("newConnections").get("median").asLong());
            assertThat(cell.get("tlsResumed").asLong()).isLessThanOrEqualTo(cell.get("tlsHandshakes").get("median")
                    .asLong());
        }
        assertThat(json.get("rounds").get(0).has("tlsHandshakes")).isTrue();
        String html = HtmlReport.reuse(tls);
        assertThat(html).contains("TLS handshakes per cell").contains("resumed handshakes")
                .contains("(HTTP/1.1 over TLS)");
        assertThat(html.split("<svg", -1)).as("a chart of connections and one of handshakes").hasSize(3);
    }

    @Test
    void plainRunsShowNoTlsFigures() {
        String text = ReuseTables.render(result);
        assertThat(text).doesNotContain("TLS handshakes").contains("(HTTP/1.1; shuttle-h2: h2c)")
                .contains("shuttle-h2 speaks HTTP/2 (h2c with prior knowledge)");
        assertThat(ReuseTables.render(SampleResults.reuse(List.of(ClientKind.JDK), List.of(ReuseCase.CL_2K), 1)))
                .contains("(HTTP/1.1)").doesNotContain("shuttle-h2");
        assertThat(JsonReport.reuse(result).get("cells").get(0).has("tlsHandshakes")).isFalse();
        assertThat(HtmlReport.reuse(result)).doesNotContain("TLS handshakes");
    }

    @Test
    void htmlReportIsWellFormedSelfContainedAndHasTheChartAndTable(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("report.html");
        HtmlReport.write(HtmlReport.reuse(result), file);
        String html = Files.readString(file);
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg").contains("<table")
                .contains("published figures from the seeds, not measurements")
                .contains("Go 1.27: 26");
        // self-contained: nothing fetched from anywhere
        assertThat(html).doesNotContainIgnoringCase("<script").doesNotContain("src=").doesNotContain("href=")
                .doesNotContain("@import").doesNotContain("url(");
        // well-formed: it parses as XML once the HTML doctype is set aside
        String xml = html.substring(html.indexOf("<html"));
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        Document doc = factory.newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getElementsByTagName("svg").getLength()).isEqualTo(1);
        assertThat(doc.getElementsByTagName("rect").getLength())
                .as("one bar per cell plus one legend swatch per client")
                .isEqualTo(ClientKind.values().length * ReuseCase.values().length + ClientKind.values().length);
        assertThat(doc.getElementsByTagName("table").getLength()).isGreaterThanOrEqualTo(5);
    }

    @Test
    void jsonReportParsesAndHoldsCellsRoundsAndSources(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("report.json");
        JsonReport.write(JsonReport.reuse(result), file);
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        int cells = ClientKind.values().length * ReuseCase.values().length;
        assertThat(root.get("cells")).hasSize(cells);
        assertThat(root.get("rounds")).hasSize(cells * 3);
        JsonNode first = root.get("cells").get(0);
        assertThat(first.get("newConnections").get("median").isNumber()).isTrue();
        assertThat(first.get("serverBytes").asLong()).isPositive();
        assertThat(root.get("parameters").get("dialDelayMillis").asLong()).isEqualTo(20);
        assertThat(root.get("environment").get("javaVersion").asText()).isNotBlank();
        assertThat(root.get("published")).isNotEmpty();
        for (JsonNode figure : root.get("published")) {
            assertThat(figure.get("seed").asText()).startsWith("seeds/");
            assertThat(figure.get("sentence").asText()).isNotBlank();
        }
        boolean sawShuttleView = false;
        for (JsonNode round : root.get("rounds")) {
            if (round.get("client").asText().startsWith("shuttle")) {
                sawShuttleView |= round.get("clientView").get("reusedRequests").asLong() == 9;
            }
        }
        assertThat(sawShuttleView).isTrue();
    }

    @Test
    void unitsReadNaturally() {
        assertThat(Units.bytes(812)).isEqualTo("812 B");
        assertThat(Units.bytes(65_024)).isEqualTo("63.5 KiB");
        assertThat(Units.bytes(1L << 20)).isEqualTo("1.00 MiB");
        assertThat(Units.millis(1_270_000)).isEqualTo("1.27");
        assertThat(Units.duration(112_000_000_000L)).isEqualTo("1 min 52 s");
    }
}
