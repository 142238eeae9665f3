package dev.shuttle.benchmarks.server;

import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.util.concurrent.CountDownLatch;

/**
 * Starts one benchmark server on 127.0.0.1 and prints {@code PORT n}; runs until killed.
 * Usage: {@code ServeOneKiB shuttle|jetty PORT [tls|h2]} (0 picks a free port). Plaintext, Shuttle's server speaks
 * HTTP/1.1 and h2c (prior knowledge or Upgrade), Jetty's HTTP/1.1 only. With {@code tls} the server speaks HTTP/1.1
 * over TLS only (HTTP/2 off, so ALPN can only say http/1.1); with {@code h2} (Shuttle only) ALPN offers h2 then
 * http/1.1. Both use a self-signed certificate generated at start ({@link SelfSignedCertificate}, JDK provider), the
 * same certificate type for both servers.
 */
public final class ServeOneKiB {
    private ServeOneKiB() {
    }

    public static void main(String[] args) throws Exception {
        String name = args.length > 0 ? args[0] : "shuttle";
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        String mode = args.length > 2 ? args[2] : "plain";
        if (!mode.equals("plain") && !mode.equals("tls") && !mode.equals("h2")) {
            throw new IllegalArgumentException("unknown mode " + mode + " (tls, h2)");
        }
        SelfSignedCertificate tls = mode.equals("plain") ? null : SelfSignedCertificate.generate();
        BenchmarkServer server = switch (name) {
            case "shuttle" -> new ShuttleOneKiBServer(port, tls, mode.equals("h2"));
            case "jetty" -> {
                if (mode.equals("h2")) {
                    throw new IllegalArgumentException("the Jetty target serves HTTP/1.1 only");
                }
                yield new JettyOneKiBServer(port, tls);
            }
            default -> throw new IllegalArgumentException("unknown server " + name + " (shuttle, jetty)");
        };
        System.out.println("PORT " + server.port());
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
