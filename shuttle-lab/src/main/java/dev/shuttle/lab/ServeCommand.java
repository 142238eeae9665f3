package dev.shuttle.lab;

import dev.shuttle.lab.fixture.FixtureServer;
import dev.shuttle.lab.relay.DialDelayRelay;
import dev.shuttle.server.HttpServer;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code shuttle serve}: the fixture server on its own, or with {@code --files} a directory, until Ctrl-C. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Start the fixture server on 127.0.0.1 (the endpoints of every lab case), or with --files a "
                + "file server for a directory (HTTP/1.1 and h2c), and wait for Ctrl-C.")
final class ServeCommand implements Callable<Integer> {
    @Option(names = "--files", paramLabel = "DIR",
            description = "Serve this directory instead of the fixture: Range, ETag, conditional GET, index.html.")
    Path files;

    @Option(names = "--listing", description = "With --files: list directories that have no index.html.")
    boolean listing;

    @Option(names = "--gzip", description = "With --files: gzip compressible files for clients that accept it.")
    boolean gzip;

    @Option(names = "--bind", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
            description = "With --files: the address to listen on (default ${DEFAULT-VALUE}; 0.0.0.0 serves other "
                    + "machines).")
    String bind;

    @Option(names = {"-v", "--verbose"}, description = "With --files: print an access-log line per request.")
    boolean verbose;

    @Option(names = "--port", defaultValue = "8080",
            description = "Port on 127.0.0.1; 0 picks a free one and prints it (default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--dial-delay", defaultValue = "0ms", converter = DurationConverter.class,
            description = "Also start the dial-delay relay in front of the fixture, e.g. 20ms.")
    Duration dialDelay;

    @Option(names = "--tls",
            description = "Serve HTTPS with a certificate generated at start (an authority and a leaf for localhost, "
                    + "127.0.0.1 and ::1); the authority's PEM file is printed, for --cacert.")
    boolean tls;

    @Option(names = "--cacert-out", paramLabel = "FILE",
            description = "With --tls: write the authority's certificate (PEM) here and keep it (default: a temporary "
                    + "file, deleted when the server stops).")
    Path caCertOut;

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65535) {
            System.err.println("shuttle serve: port must be in 0..65535, got " + port);
            return 2;
        }
        if (caCertOut != null && !tls) {
            System.err.println("shuttle serve: --cacert-out needs --tls");
            return 2;
        }
        if (files == null && (listing || gzip || verbose || !bind.equals("127.0.0.1"))) {
            System.err.println("shuttle serve: --listing, --gzip, --bind and -v go with --files");
            return 2;
        }
        if (files != null && !dialDelay.isZero()) {
            System.err.println("shuttle serve: --dial-delay is for the fixture, not --files");
            return 2;
        }
        Serving serving = start(System.out);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            serving.close();
            stopped.countDown();
        }, "shuttle-serve-shutdown"));
        stopped.await();
        return 0;
    }

    /** Starts the fixture (and relay), prints where they listen and, over TLS, where the authority is. */
    Serving start(PrintStream out) throws IOException {
        if (files != null) {
            return startFiles(out);
        }
        Path caFile = null;
        Path temporaryCa = null;
        FixtureServer fixture;
        if (tls) {
            SelfSignedCertificate certificate = SelfSignedCertificate.generate();
            caFile = caCertOut != null ? caCertOut.toAbsolutePath()
                    : (temporaryCa = Files.createTempFile("shuttle-fixture-ca-", ".pem"));
            certificate.writeAuthorityPem(caFile);
            fixture = FixtureServer.startTls(port, certificate);
        } else {
            fixture = FixtureServer.start(port);
        }
        DialDelayRelay relay;
        try {
            relay = dialDelay.isZero() ? null : new DialDelayRelay(fixture.address(), dialDelay).start();
        } catch (IOException | RuntimeException e) {
            fixture.close();
            deleteQuietly(temporaryCa);
            throw e;
        }
        String scheme = fixture.scheme();
        out.println("fixture server listening on " + scheme + "://127.0.0.1:" + fixture.port() + "/");
        if (relay != null) {
            out.println("dial-delay relay (" + dialDelay.toMillis() + " ms per new connection) on " + scheme
                    + "://127.0.0.1:" + relay.port() + "/");
        }
        if (caFile != null) {
            out.println("CA certificate: " + caFile + (temporaryCa != null ? " (deleted when the server stops)" : ""));
            out.println("  curl --cacert " + caFile + " https://127.0.0.1:" + fixture.port() + "/");
            out.println("  ./shuttle get --cacert " + caFile + " https://127.0.0.1:" + fixture.port() + "/ -v");
        }
        out.println("""
                endpoints: /bytes?n=N  /chunked?n=N  /pause?ms=P&n=N  /tail?ms=T&n=N  /close?n=N  /json
                           /json-chunked  /json-late-end?ms=L  /throttle?n=N&bps=R   (Ctrl-C to stop)""");
        out.flush();
        return new Serving(fixture, relay, temporaryCa, null);
    }

    private Serving startFiles(PrintStream out) throws IOException {
        if (!Files.isDirectory(files)) {
            throw new IOException("not a directory: " + files);
        }
        Path temporaryCa = null;
        SSLContext context = null;
        Path caFile = null;
        if (tls) {
            SelfSignedCertificate certificate = SelfSignedCertificate.generate();
            caFile = caCertOut != null ? caCertOut.toAbsolutePath()
                    : (temporaryCa = Files.createTempFile("shuttle-files-ca-", ".pem"));
            certificate.writeAuthorityPem(caFile);
            context = certificate.serverContext();
        }
        HttpServer server = FileServing.start(files, InetAddress.getByName(bind), port, context, listing, gzip,
                verbose, out);
        String url = (tls ? "https" : "http") + "://" + bind + ":" + server.port() + "/";
        out.println("serving " + files.toAbsolutePath() + " on " + url + (tls ? " (HTTP/1.1 and h2)"
                : " (HTTP/1.1 and h2c)") + (listing ? ", directories listed" : "") + (gzip ? ", gzip" : ""));
        if (caFile != null) {
            out.println("CA certificate: " + caFile + (temporaryCa != null ? " (deleted when the server stops)" : ""));
            out.println("  curl --cacert " + caFile + " " + url);
        }
        out.println("(Ctrl-C to stop)");
        out.flush();
        return new Serving(null, null, temporaryCa, server);
    }

    /** What {@link #start} started (the fixture, or a file server); closing stops it and deletes a temporary CA. */
    record Serving(FixtureServer fixture, DialDelayRelay relay, Path temporaryCa, HttpServer files)
            implements AutoCloseable {
        @Override
        public void close() {
            if (relay != null) {
                relay.close();
            }
            if (fixture != null) {
                fixture.close();
            }
            if (files != null) {
                files.close();
            }
            deleteQuietly(temporaryCa);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a temporary file left behind in /tmp is harmless
        }
    }
}
