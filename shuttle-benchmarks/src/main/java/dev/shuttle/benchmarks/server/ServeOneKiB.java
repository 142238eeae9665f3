package dev.shuttle.benchmarks.server;

import java.util.concurrent.CountDownLatch;

/**
 * Starts one benchmark server on 127.0.0.1 and prints {@code PORT n}; runs until killed.
 * Usage: {@code ServeOneKiB shuttle|jetty PORT} (0 picks a free port).
 */
public final class ServeOneKiB {
    private ServeOneKiB() {
    }

    public static void main(String[] args) throws Exception {
        String name = args.length > 0 ? args[0] : "shuttle";
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        BenchmarkServer server = switch (name) {
            case "shuttle" -> new ShuttleOneKiBServer(port);
            case "jetty" -> new JettyOneKiBServer(port);
            default -> throw new IllegalArgumentException("unknown server " + name + " (shuttle, jetty)");
        };
        System.out.println("PORT " + server.port());
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
