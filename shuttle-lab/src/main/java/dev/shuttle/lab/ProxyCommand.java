package dev.shuttle.lab;

import dev.shuttle.client.ClientStats;
import dev.shuttle.client.DrainPolicy;
import dev.shuttle.client.HttpClient;
import dev.shuttle.proxy.ReverseProxy;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.log.AccessLog;
import dev.shuttle.server.routing.Router;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.URI;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code shuttle proxy}: Shuttle's reverse proxy in front of one upstream, until Ctrl-C. */
@Command(name = "proxy", mixinStandardHelpOptions = true,
        description = "Run Shuttle's reverse proxy on 127.0.0.1 in front of --upstream, and print how many upstream "
                + "connections it opened when it stops (and after each request with -v).")
final class ProxyCommand implements Callable<Integer> {
    @Option(names = "--upstream", required = true, paramLabel = "URL",
            description = "Where requests go: http://host:port or https://..., optionally with a base path.")
    URI upstream;

    @Option(names = "--port", defaultValue = "8080",
            description = "Port to listen on; 0 picks a free one and prints it (default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--bind", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
            description = "Address to listen on (default ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--upstream-h2c", description = "Speak HTTP/2 to a plaintext upstream (prior knowledge).")
    boolean upstreamH2c;

    @Option(names = "--drain", defaultValue = "default", paramLabel = "POLICY",
            description = "The upstream client's drain policy when a downstream client leaves mid-body: default "
                    + "(the proxy's: inline, background, hand-off, within 4 MiB and 100 ms), client (the client's "
                    + "default, 256 KiB and 50 ms), bounded (Go 1.27), none (close at once, Go 1.26) "
                    + "(default ${DEFAULT-VALUE}).")
    String drain;

    @Option(names = {"-v", "--verbose"},
            description = "Print an access-log line per request, with the upstream connections opened so far.")
    boolean verbose;

    @Override
    public Integer call() throws Exception {
        DrainPolicy policy = switch (drain) {
            case "default" -> ReverseProxy.UPSTREAM_DRAIN;
            case "client" -> DrainPolicy.defaults();
            case "bounded" -> DrainPolicy.bounded(DrainPolicy.DEFAULT_MAX_BYTES, DrainPolicy.DEFAULT_MAX_TIME);
            case "none" -> DrainPolicy.none();
            default -> null;
        };
        if (policy == null) {
            System.err.println("shuttle proxy: --drain must be default, client, bounded or none, got " + drain);
            return 2;
        }
        Running running = start(policy, System.out);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            running.close();
            System.out.println(summary(running.proxy().stats()));
            System.out.flush();
            stopped.countDown();
        }, "shuttle-proxy-shutdown"));
        stopped.await();
        return 0;
    }

    /** Starts the proxy and prints where it listens. */
    Running start(DrainPolicy policy, PrintStream out) throws IOException {
        HttpClient client = ReverseProxy.clientBuilder()
                .drainPolicy(policy)
                .http2PriorKnowledge(upstreamH2c)
                .build();
        ReverseProxy proxy = ReverseProxy.to(upstream).client(client).build();
        Router router = new Router().handle("/", proxy);
        if (verbose) {
            router.use(AccessLog.builder().combined(true).sink(line -> {
                out.println(line + " upstream-connections=" + proxy.stats().connectionsOpened());
                out.flush();
            }).build());
        }
        HttpServer server;
        try {
            server = HttpServer.builder().address(InetAddress.getByName(bind)).port(port).handler(router).start();
        } catch (IOException | RuntimeException e) {
            client.close();
            throw e;
        }
        out.println("proxy listening on http://" + bind + ":" + server.port() + "/ (HTTP/1.1 and h2c) -> " + upstream
                + (upstreamH2c ? " (h2c)" : "") + ", drain policy " + drain + " (Ctrl-C to stop)");
        out.flush();
        return new Running(server, proxy, client);
    }

    static String summary(ClientStats stats) {
        return "upstream connections opened: " + stats.connectionsOpened() + " for " + stats.requests()
                + " requests (" + stats.reusedRequests() + " on a reused connection)";
    }

    /** What {@link #start} started; closing stops the server, then the upstream client. */
    record Running(HttpServer server, ReverseProxy proxy, HttpClient client) implements AutoCloseable {
        @Override
        public void close() {
            server.close();
            proxy.close();
            client.close();
        }
    }
}
