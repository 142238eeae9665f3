package dev.shuttle.lab.reuse.peers;

import dev.shuttle.mockserver.MockBodies;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Debian's nginx as a child process serving HTTP/2 only (h2c with prior knowledge, or ALPN h2 over TLS), one worker,
 * nginx's defaults otherwise (so {@code keepalive_requests 1000}: a connection ends with GOAWAY after 1 000
 * requests), everything it writes under a temporary directory deleted on close. The bodies are static files written
 * at start, {@code /bytes?n=N} mapped to {@code bytes-N} for every size a case asks for, and {@code /json}.
 */
public final class NginxPeer implements PeerServer {
    private static final List<Path> PLACES = List.of(Path.of("/usr/sbin/nginx"), Path.of("/usr/local/sbin/nginx"),
            Path.of("/usr/local/nginx/sbin/nginx"));
    private static final long START_TIMEOUT_MILLIS = 10_000;
    private static final int START_ATTEMPTS = 3;

    private final Path dir;
    private final int port;
    private final Process process;
    private final Thread stopOnExit = new Thread(this::stop, "nginx-peer-stop");

    private NginxPeer(Path dir, int port, Process process) {
        this.dir = dir;
        this.port = port;
        this.process = process;
        Runtime.getRuntime().addShutdownHook(stopOnExit);
    }

    /** Starts nginx serving {@code /bytes?n=N} for each of {@code sizes}, and {@code /json}. */
    public static NginxPeer start(SelfSignedCertificate certificate, List<Integer> sizes) throws IOException {
        Path nginx = binary();
        Path dir = Files.createTempDirectory("shuttle-lab-nginx");
        // nginx run as root serves files as an unprivileged worker: the files must be readable by all.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path www = Files.createDirectories(dir.resolve("www"));
        Files.createDirectories(dir.resolve("tmp"));
        for (int n : sizes) {
            Files.write(www.resolve("bytes-" + n), MockBodies.slice(0, n));
        }
        Files.write(www.resolve("json"), PeerBodies.JSON);
        if (certificate != null) {
            certificate.writePem(dir.resolve("chain.pem"), dir.resolve("key.pem"));
        }
        IOException last = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            int port = freePort();
            Path config = dir.resolve("nginx.conf");
            Files.writeString(config, config(dir, port, certificate != null), StandardCharsets.US_ASCII);
            Process process = new ProcessBuilder(nginx.toString(), "-p", dir.toString(), "-c", config.toString(),
                    "-e", dir.resolve("error.log").toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile()).start();
            NginxPeer peer = new NginxPeer(dir, port, process);
            try {
                peer.awaitListening();
                return peer;
            } catch (IOException e) {
                peer.stop();
                last = e;
            }
        }
        deleteTree(dir);
        throw last;
    }

    private static Path binary() throws IOException {
        String path = System.getenv().getOrDefault("PATH", "");
        return Stream.concat(Stream.of(path.split(":")).filter(p -> !p.isEmpty()).map(p -> Path.of(p, "nginx")),
                        PLACES.stream())
                .filter(Files::isExecutable).findFirst()
                .orElseThrow(() -> new IOException("nginx is not installed (apt-get install nginx-light)"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static String config(Path dir, int port, boolean tls) {
        return """
                worker_processes 1;
                daemon off;
                pid %1$s/nginx.pid;
                events {
                    worker_connections 1024;
                }
                http {
                    access_log off;
                    client_body_temp_path %1$s/tmp/body;
                    proxy_temp_path %1$s/tmp/proxy;
                    fastcgi_temp_path %1$s/tmp/fastcgi;
                    uwsgi_temp_path %1$s/tmp/uwsgi;
                    scgi_temp_path %1$s/tmp/scgi;
                    default_type application/octet-stream;
                    server {
                        listen 127.0.0.1:%2$d%3$s http2;
                        %4$s
                        root %1$s/www;
                        location = /bytes {
                            try_files /bytes-$arg_n =404;
                        }
                        location = /json {
                            default_type application/json;
                            try_files /json =404;
                        }
                    }
                }
                """.formatted(dir, port, tls ? " ssl" : "",
                tls ? "ssl_certificate " + dir + "/chain.pem;\n            ssl_certificate_key " + dir + "/key.pem;"
                        : "");
    }

    private void awaitListening() throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MILLIS);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("nginx exited with " + process.exitValue() + ": " + log());
            }
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
                return;
            } catch (IOException notYet) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while nginx started", e);
                }
            }
        }
        throw new IOException("nginx did not listen on port " + port + " within " + START_TIMEOUT_MILLIS + " ms: "
                + log());
    }

    private String log() {
        try {
            return Files.readString(dir.resolve("error.log")).strip();
        } catch (IOException e) {
            return "(no error log)";
        }
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
        } catch (IllegalStateException exiting) {
            // the hook is running or about to: it stops nginx itself
        }
        deleteTree(dir);
    }

    /** Stops nginx (SIGTERM: a fast shutdown of master and worker), then kills it if it lingers. */
    private void stop() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
