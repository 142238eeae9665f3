package dev.shuttle.lab.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.shuttle.lab.busy.BusyCell;
import dev.shuttle.lab.busy.BusyMeasurement;
import dev.shuttle.lab.busy.BusyResult;
import dev.shuttle.lab.busy.BusyScenario;
import dev.shuttle.lab.busy.BusySettings;
import dev.shuttle.lab.idle.IdleCell;
import dev.shuttle.lab.idle.IdleResult;
import dev.shuttle.lab.idle.IdleRound;
import dev.shuttle.lab.idle.IdleSample;
import dev.shuttle.lab.idle.IdleSettings;
import dev.shuttle.lab.load.LoadResult;
import dev.shuttle.lab.servers.Protocol;
import dev.shuttle.lab.servers.ServerKind;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class IdleBusyReportsTest {
    private static final List<ServerKind> PEERS = List.of(ServerKind.JETTY, ServerKind.UNDERTOW);
    private static final List<ServerKind> PARKING = List.of(ServerKind.SHUTTLE, ServerKind.SHUTTLE_NOPARKING);

    static IdleResult idle() {
        IdleSettings settings = IdleSettings.defaults(List.of(ServerKind.SHUTTLE, ServerKind.JETTY,
                ServerKind.UNDERTOW), List.of(1000, 5000), Protocol.H2C, 2);
        List<IdleCell> cells = new ArrayList<>();
        for (ServerKind server : PEERS) {
            for (int count : settings.connectionCounts()) {
                List<IdleRound> rounds = new ArrayList<>();
                for (int r = 1; r <= 2; r++) {
                    IdleSample base = new IdleSample(1100L << 20, 8L << 20, 30, 0);
                    IdleSample loaded = new IdleSample((1100L << 20) + count * 8192L, (8L << 20) + count * 3000L,
                            31, 0);
                    rounds.add(IdleRound.of(server, count, r, List.of(base), List.of(loaded), count + 1, 0, null));
                }
                cells.add(new IdleCell(server, count, rounds));
            }
        }
        Map<ServerKind, String> skipped = new LinkedHashMap<>();
        skipped.put(ServerKind.SHUTTLE, "h2 (TLS with ALPN) is not wired up in the lab yet; use h2c");
        Map<ServerKind, String> versions = new LinkedHashMap<>();
        PEERS.forEach(k -> versions.put(k, "1.0"));
        return new IdleResult(settings, RunEnvironment.capture(), PEERS, skipped, versions, cells, 42_000_000_000L);
    }

    static BusyResult busy() {
        return busy(PEERS);
    }

    /** Parking on: 30 MiB of RSS growth and 60 MiB live heap; off: 40 MiB and 80 MiB; others like parking off. */
    static BusyResult busy(List<ServerKind> servers) {
        BusySettings settings = new BusySettings(servers, List.of(BusyScenario.values()), Protocol.H2C, 1, null,
                null, "auto");
        List<BusyCell> cells = new ArrayList<>();
        for (BusyScenario scenario : BusyScenario.values()) {
            for (ServerKind server : servers) {
                boolean parking = server == ServerKind.SHUTTLE;
                LoadResult load = new LoadResult(32, 400_000, 0, 20_000, 250, parking ? 2_200 : 2_000, 4_000, 9_000,
                        null, "lab");
                IdleSample baseline = new IdleSample(1100L << 20, 8L << 20, 30, 0);
                long rss = (1100L << 20) + ((parking ? 30L : 40L) << 20);
                cells.add(new BusyCell(server, scenario, List.of(new BusyMeasurement(server, scenario, 1, load,
                        30_000_000_000L, 20_000_000_000L, rss, baseline, (parking ? 60L : 80L) << 20))));
            }
        }
        return new BusyResult(settings, RunEnvironment.capture(), servers, Map.of(), Map.of(), cells, List.of(),
                1_000_000_000L);
    }

    @Test
    void idleTextShowsPerConnectionCostsGoFiguresAndThePendingServer() {
        String text = IdleReport.text(idle());
        assertThat(text).contains("Per idle connection at 5 000 connections")
                .contains("8.0 KiB") // RSS per connection
                .contains("2.9 KiB") // 3000 B of heap per connection
                .contains("Go 1.27.3 †").contains("34 KiB").contains("22.5 KiB").contains("10,004 goroutines")
                .contains("not measured: shuttle over h2c: h2 (TLS with ALPN) is not wired up")
                .contains("-XX:+UseSerialGC -Xms1g -Xmx1g").contains("max concurrent streams 100");
    }

    @Test
    void idleHtmlIsWellFormedOfflineAndHasBothCharts() throws Exception {
        String html = IdleReport.html(idle());
        assertThat(html).doesNotContainIgnoringCase("<script").doesNotContain("src=").doesNotContain("href=");
        Document doc = parse(html);
        assertThat(doc.getElementsByTagName("svg").getLength()).isEqualTo(2);
        // one line per server and chart, one dot per point (baseline + 2 counts)
        assertThat(doc.getElementsByTagName("polyline").getLength()).isEqualTo(2 * PEERS.size());
        assertThat(doc.getElementsByTagName("circle").getLength()).isEqualTo(2 * PEERS.size() * 3);
        assertThat(html).contains("published figures and their sources".substring(1));
    }

    @Test
    void idleJsonHoldsCellsRoundsAndSources() {
        JsonNode root = IdleReport.json(idle());
        assertThat(root.get("cells")).hasSize(4);
        JsonNode cell = root.get("cells").get(0);
        assertThat(cell.get("perConnection").get("liveHeapBytes").asDouble()).isEqualTo(3000.0);
        assertThat(cell.get("roundDetails")).hasSize(2);
        assertThat(root.get("notMeasured").get("shuttle").asText()).contains("not wired up");
        assertThat(root.get("published")).isNotEmpty();
    }

    @Test
    void busyReportsShowBothScenariosWithCpuAndPublishedFigures() throws Exception {
        BusyResult result = busy();
        String text = BusyReport.text(result);
        assertThat(text).contains("mostly-idle: 5000 connections").contains("hot: 32 connections × 4")
                .contains("20 000") // requests/s
                .contains("150.0%") // 30 s of CPU in a 20 s window
                .contains("39.6k requests/s on, 35.6k off");
        Document doc = parse(BusyReport.html(result));
        assertThat(doc.getElementsByTagName("svg").getLength()).isEqualTo(2);
        assertThat(BusyReport.json(result).get("cells")).hasSize(4);
    }

    @Test
    void busyShowsLiveHeapAndRssGrowthAndParkingOnAgainstOff() throws Exception {
        BusyResult result = busy(PARKING);
        String text = BusyReport.text(result);
        assertThat(text).contains("live heap").contains("RSS growth")
                .contains("60.0 MiB").contains("+30.0 MiB").contains("+40.0 MiB")
                .contains("parking on vs off: live heap -25 %, RSS growth -25 %, CPU µs/req +0 %, p50 +0 %, "
                        + "p99 +10 %");
        JsonNode root = BusyReport.json(result);
        assertThat(root.get("cells").get(0).get("rssGrowthBytes").asDouble()).isEqualTo(30.0 * (1 << 20));
        assertThat(root.get("cells").get(0).get("liveHeapBytes").asDouble()).isEqualTo(60.0 * (1 << 20));
        assertThat(root.get("parkingOnVsOff").get("hot").get("rssGrowth").asDouble()).isEqualTo(-0.25);
        assertThat(BusyReport.html(result)).contains("parking on vs off: live heap -25 %");
        assertThat(BusyReport.text(busy())).doesNotContain("parking on vs off");
    }

    @Test
    void relativeFiguresAreAgainstTheOtherAndNaNWithoutOne() {
        double[][] table = {{75, 100, -0.25}, {110, 100, 0.10}, {100, 100, 0}, {0, 50, -1}};
        for (double[] row : table) {
            assertThat(BusyCell.relative(row[0], row[1])).isCloseTo(row[2], org.assertj.core.data.Offset.offset(1e-9));
        }
        assertThat(BusyCell.relative(5, 0)).isNaN();
    }

    private static Document parse(String html) throws Exception {
        String xml = html.substring(html.indexOf("<html"));
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }
}
