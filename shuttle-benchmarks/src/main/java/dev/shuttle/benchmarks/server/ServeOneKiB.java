package dev.shuttle.benchmarks.server;

import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.util.concurrent.CountDownLatch;

/**
 * Starts one benchmark server on 127.0.0.1 and prints {@code PORT n}; runs until killed.
 * Usage: {@code ServeOneKiB shuttle|jetty PORT [tls]} (0 picks a free port). With {@code tls} the server speaks
 * HTTP/1.1 over TLS only (HTTP/2 off, so ALPN can only say http/1.1) with a self-signed certificate generated at
 * start ({@link SelfSignedCertificate}, JDK provider), the same certificate type for both servers.
 */
public final class ServeOneKiB {
    private ServeOneKiB() {
    }

    public static void main(String[] args) throws Exception {
        String name = args.length > 0 ? args[0] : "shuttle";
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        SelfSignedCertificate tls = args.length > 2 && args[2].equals("tls") ? SelfSignedCertificate.generate() : null;
        BenchmarkServer server = switch (name) {
            case "shuttle" -> new ShuttleOneKiBServer(port, tls);
            case "jetty" -> new JettyOneKiBServer(port, tls);
            default -> throw new IllegalArgumentException("unknown server " + name + " (shuttle, jetty)");
        };
        System.out.println("PORT " + server.port());
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
