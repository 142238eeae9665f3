package dev.shuttle.lab.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.shuttle.lab.servers.LabTls;
import dev.shuttle.lab.servers.Protocol;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import javax.net.ssl.SSLContext;

/**
 * The main class of the lab's client JVM, kept apart from the server under test so that each process holds only
 * its own half of every connection (and its own 20 000 open files):
 * <pre>
 * LoadMain hold        PROTOCOL PORT                                   (commands on stdin, see IdleHolder)
 * LoadMain mostly-idle PROTOCOL PORT CONNECTIONS INTERVAL_MS WARMUP_MS DURATION_MS
 * LoadMain hot         PROTOCOL PORT CONNECTIONS STREAMS     WARMUP_MS DURATION_MS
 * LoadMain hot-shuttle PROTOCOL PORT CONNECTIONS STREAMS     WARMUP_MS DURATION_MS   (h2c or http1)
 * </pre>
 * {@code hot-shuttle} is {@code hot} with each connection one of Shuttle's own clients
 * ({@link ShuttleClientConnection}) instead of the lab's hand-rolled one.
 * Over TLS ({@code https}) one more argument comes last: the PEM file of the authority to trust ({@code LabTls}).
 * The load modes print {@code CONNECTED n failed f}, then {@code MEASURING} and {@code MEASURED} at the window's
 * edges, then {@code RESULT {json}} (a {@link LoadResult}), and keep their connections open until stdin closes;
 * {@code ERROR message} on failure.
 */
public final class LoadMain {
    private LoadMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        try {
            Protocol protocol = Protocol.parse(args[1]);
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", Integer.parseInt(args[2]));
            SSLContext tls = protocol.isTls() ? LabTls.clientContext(Path.of(args[args.length - 1])) : null;
            boolean shuttleClient = args[0].equals("hot-shuttle");
            Dialer dialer = new Dialer(protocol, address, tls, shuttleClient);
            switch (args[0]) {
                case "hold" -> new IdleHolder(dialer, out).run();
                case "mostly-idle", "hot", "hot-shuttle" -> busy(args, dialer, out);
                default -> throw new IllegalArgumentException("unknown mode " + args[0]);
            }
        } catch (Exception e) {
            out.println("ERROR " + e.toString().replace('\n', ' '));
            out.flush();
            e.printStackTrace();
            System.exit(2);
        }
        System.exit(0);
    }

    private static void busy(String[] args, Dialer dialer, PrintStream out) throws Exception {
        int connections = Integer.parseInt(args[3]);
        long shape = Long.parseLong(args[4]);
        Duration warmup = Duration.ofMillis(Long.parseLong(args[5]));
        Duration duration = Duration.ofMillis(Long.parseLong(args[6]));
        Dialer.Dialed dialed = dialer.openAll(connections);
        out.println("CONNECTED " + dialed.connections().size() + " failed " + dialed.failed());
        out.flush();
        if (dialed.connections().isEmpty()) {
            throw new java.io.IOException("no connection could be opened: " + dialed.firstError());
        }
        LoadResult result = switch (args[0]) {
            case "hot" -> BusyLoad.hot(dialed.connections(), (int) shape, warmup, duration, "lab", out);
            case "hot-shuttle" -> BusyLoad.hot(dialed.connections(), (int) shape, warmup, duration,
                    ShuttleClientConnection.generatorName(dialer.protocol()), out);
            default -> BusyLoad.mostlyIdle(dialed.connections(), Duration.ofMillis(shape), warmup, duration, out);
        };
        if (result.firstError() == null && dialed.firstError() != null) {
            result = new LoadResult(result.connections(), result.requests(), result.errors() + dialed.failed(),
                    result.windowMillis(), result.p50Micros(), result.p99Micros(), result.p999Micros(),
                    result.maxMicros(), "dial: " + dialed.firstError(), result.generator());
        }
        out.println("RESULT " + new ObjectMapper().writeValueAsString(result));
        out.flush();
        // holds the connections open, idle, until the lab closes stdin: it samples the server's live heap meanwhile
        System.in.transferTo(java.io.OutputStream.nullOutputStream());
        for (LabConnection connection : dialed.connections()) {
            connection.close();
        }
    }
}
