package dev.shuttle.lab.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.reference.PublishedFigure;
import dev.shuttle.lab.reuse.CellMeasurement;
import dev.shuttle.lab.reuse.CellSummary;
import dev.shuttle.lab.reuse.ReuseCase;
import dev.shuttle.lab.reuse.ReuseResult;
import dev.shuttle.lab.reuse.ReuseSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Machine-readable reports: plain JSON trees written with Jackson, times in milliseconds, sizes in bytes. */
public final class JsonReport {
    static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonReport() {
    }

    public static void write(ObjectNode report, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        MAPPER.writeValue(file.toFile(), report);
    }

    public static ObjectNode reuse(ReuseResult result) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("experiment", "lab reuse");
        root.put("unit", "newConnections (and tlsHandshakes, tlsResumed over TLS) per cell of 'requests' sequential "
                + "calls; bytes; milliseconds");
        root.set("parameters", parameters(result.settings()));
        root.set("environment", environment(result.environment()));
        root.put("elapsedMillis", result.elapsedNanos() / 1e6);
        ArrayNode cells = root.putArray("cells");
        for (CellSummary c : result.summaries()) {
            ObjectNode cell = cells.addObject();
            cell.put("case", c.reuseCase().id());
            cell.put("caseLabel", c.reuseCase().label());
            cell.put("path", c.reuseCase().pathAndQuery());
            cell.put("bodyUse", c.reuseCase().bodyUse().name());
            cell.put("client", c.client().cliName());
            cell.put("clientLabel", c.client().label());
            cell.put("requests", c.requests());
            cell.put("rounds", c.rounds());
            ObjectNode connections = cell.putObject("newConnections");
            connections.put("median", c.newConnections());
            connections.put("min", c.minNewConnections());
            connections.put("max", c.maxNewConnections());
            cell.put("serverBytes", c.serverBytes());
            if (result.settings().tls()) {
                ObjectNode handshakes = cell.putObject("tlsHandshakes");
                handshakes.put("median", c.tlsHandshakes());
                handshakes.put("min", c.minTlsHandshakes());
                handshakes.put("max", c.maxTlsHandshakes());
                cell.put("tlsResumed", c.tlsResumed());
            }
            if (c.goAways() >= 0) {
                cell.put("goAwaysBeforeClientClosed", c.goAways());
            }
            cell.put("wallMillis", c.wallNanos() / 1e6);
            cell.put("p50Millis", c.p50Nanos() / 1e6);
            cell.put("p99Millis", c.p99Nanos() / 1e6);
            cell.put("errors", c.errors());
        }
        ArrayNode rounds = root.putArray("rounds");
        for (CellMeasurement m : result.measurements()) {
            ObjectNode round = rounds.addObject();
            round.put("case", m.reuseCase().id());
            round.put("client", m.client().cliName());
            round.put("round", m.round());
            round.put("requests", m.requests());
            round.put("newConnections", m.newConnections());
            round.put("serverBytes", m.serverBytes());
            if (result.settings().tls()) {
                round.put("tlsHandshakes", m.tlsHandshakes());
                round.put("tlsResumed", m.tlsResumed());
            }
            if (m.goAways() >= 0) {
                round.put("goAwaysBeforeClientClosed", m.goAways());
            }
            round.put("wallMillis", m.wallNanos() / 1e6);
            round.put("p50Millis", m.p50Nanos() / 1e6);
            round.put("p99Millis", m.p99Nanos() / 1e6);
            round.put("errors", m.errors());
            if (m.firstError() != null) {
                round.put("firstError", m.firstError());
            }
            if (!m.ownView().isEmpty()) {
                round.set("clientView", MAPPER.valueToTree(m.ownView()));
            }
        }
        root.set("published", published(dev.shuttle.lab.reference.PublishedFigures.reuse()));
        return root;
    }

    static ObjectNode parameters(ReuseSettings s) {
        ObjectNode p = MAPPER.createObjectNode();
        p.put("requests", s.requests());
        p.put("slowRequests", Math.min(s.slowRequests(), s.requests()));
        p.put("rounds", s.rounds());
        p.put("dialDelayMillis", s.dialDelay().toMillis());
        p.put("tls", s.tls());
        p.put("protocol", s.protocol().cliName());
        p.put("server", s.server().cliName());
        p.put("warmupRequests", s.warmup());
        ArrayNode clients = p.putArray("clients");
        s.clients().stream().map(ClientKind::cliName).forEach(clients::add);
        ArrayNode cases = p.putArray("cases");
        s.cases().stream().map(ReuseCase::id).forEach(cases::add);
        return p;
    }

    public static ObjectNode environment(RunEnvironment e) {
        ObjectNode env = MAPPER.createObjectNode();
        env.put("javaVersion", e.javaVersion());
        env.put("javaVm", e.javaVm());
        env.put("javaVendor", e.javaVendor());
        env.put("os", e.os());
        env.put("arch", e.osArch());
        env.put("cpus", e.availableProcessors());
        env.put("cpuModel", e.cpuModel());
        env.put("maxHeapBytes", e.maxHeapBytes());
        env.put("totalMemoryBytes", e.totalMemoryBytes());
        env.put("startedAt", e.startedAt().toString());
        return env;
    }

    public static ArrayNode published(List<PublishedFigure> figures) {
        ArrayNode array = MAPPER.createArrayNode();
        for (PublishedFigure f : figures) {
            ObjectNode node = array.addObject();
            node.put("case", f.caseId());
            node.put("release", f.release().label());
            node.put("value", f.value());
            node.put("version", f.version());
            node.put("seed", f.seed());
            node.put("sentence", f.sentence());
            node.put("note", "published figure, not a measurement");
        }
        return array;
    }

    /** A map of plain values (strings, numbers, booleans, nested maps and lists) as a JSON object. */
    public static ObjectNode fromMap(Map<String, ?> values) {
        return MAPPER.valueToTree(values);
    }
}
