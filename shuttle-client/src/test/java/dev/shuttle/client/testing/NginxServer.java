package dev.shuttle.client.testing;

import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Debian's nginx as a child process, serving HTTPS on 127.0.0.1 with a certificate generated for the test: one
 * worker, HTTP/1.1 keep-alive, a shared TLS session cache and tickets, and everything it writes (pid file, logs,
 * temporary directories, configuration) under a directory of its own. {@code daemon off}, so the process this class
 * starts is nginx's master; {@link #close()} stops it and its worker, whatever state they are in.
 *
 * <p>Every response carries nginx's own account of its connection, which the client cannot fake:
 * {@code X-Connection} ({@code $connection}, nginx's serial number of the connection), {@code X-Connection-Requests}
 * ({@code $connection_requests}), {@code X-Ssl-Session-Reused} ({@code $ssl_session_reused}: {@code r} or
 * {@code .}) and {@code X-Ssl-Protocol}; the access log has the same fields, one line per request.
 *
 * <p>Paths: {@code /ok} ({@code return 200 "ok\n"}) and the static files written with {@link #writeFile}.
 */
public final class NginxServer implements AutoCloseable {
    private static final List<Path> USUAL_PLACES = List.of(Path.of("/usr/sbin/nginx"),
            Path.of("/usr/local/sbin/nginx"), Path.of("/usr/local/nginx/sbin/nginx"));
    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
    private static final int START_ATTEMPTS = 3;

    private final Path dir;
    private final int port;
    private final Process process;
    private final Thread shutdownHook;

    private NginxServer(Path dir, int port, Process process) {
        this.dir = dir;
        this.port = port;
        this.process = process;
        this.shutdownHook = new Thread(this::stop, "nginx-interop-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** The nginx binary: on PATH, or where Debian and source builds put it (sbin is not on a user's PATH). */
    public static Optional<Path> binary() {
        List<Path> candidates = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String entry : path.split(":")) {
                if (!entry.isEmpty()) {
                    candidates.add(Path.of(entry, "nginx"));
                }
            }
        }
        candidates.addAll(USUAL_PLACES);
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    /**
     * Starts nginx with its files under {@code dir} and waits until it accepts connections. Run as root, nginx's
     * worker drops to an unprivileged user, so {@code dir} (a test's own temporary directory, under a world-traversable
     * one such as /tmp) is made readable to everyone. A port taken between choosing it and nginx binding it is retried.
     */
    public static NginxServer start(Path nginx, Path dir, SelfSignedCertificate certificate) throws IOException {
        return start(nginx, dir, certificate, false);
    }

    /** As {@link #start(Path, Path, SelfSignedCertificate)}, with HTTP/2 offered in ALPN when {@code http2}. */
    public static NginxServer start(Path nginx, Path dir, SelfSignedCertificate certificate, boolean http2)
            throws IOException {
        return start(nginx, dir, certificate, http2, "");
    }

    /**
     * As {@link #start(Path, Path, SelfSignedCertificate, boolean)}, with {@code serverConfig} (directives and
     * locations: {@code return 301 /next;}, {@code gzip on;}) added to the server block.
     */
    public static NginxServer start(Path nginx, Path dir, SelfSignedCertificate certificate, boolean http2,
                                    String serverConfig) throws IOException {
        Files.createDirectories(dir.resolve("www"));
        Files.createDirectories(dir.resolve("tmp"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(dir.resolve("www"), PosixFilePermissions.fromString("rwxr-xr-x"));
        certificate.writePem(dir.resolve("chain.pem"), dir.resolve("key.pem"));
        IOException last = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            int port = ChildProcesses.freePort();
            Path config = dir.resolve("nginx.conf");
            Files.writeString(config, config(dir, port, http2, serverConfig), StandardCharsets.US_ASCII);
            Files.deleteIfExists(dir.resolve("error.log"));
            Process process = new ProcessBuilder(nginx.toString(), "-p", dir.toString(), "-c", config.toString(),
                    "-e", dir.resolve("error.log").toString())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("stdout.log").toFile())
                    .start();
            NginxServer server = new NginxServer(dir, port, process);
            try {
                server.awaitListening();
                return server;
            } catch (IOException e) {
                server.close();
                last = e;
            }
        }
        throw last;
    }

    static String config(Path dir, int port, boolean http2, String serverConfig) {
        return """
                worker_processes 1;
                daemon off;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log info;
                events {
                    worker_connections 64;
                }
                http {
                    log_format interop '$connection $connection_requests $ssl_session_reused $ssl_protocol '
                                       '$request_uri $status $body_bytes_sent';
                    access_log %1$s/access.log interop;
                    client_body_temp_path %1$s/tmp/body;
                    proxy_temp_path %1$s/tmp/proxy;
                    fastcgi_temp_path %1$s/tmp/fastcgi;
                    uwsgi_temp_path %1$s/tmp/uwsgi;
                    scgi_temp_path %1$s/tmp/scgi;
                    default_type application/octet-stream;
                    keepalive_timeout 60s;
                    keepalive_requests 1000;
                    ssl_protocols TLSv1.2 TLSv1.3;
                    ssl_session_cache shared:interop:1m;
                    ssl_session_timeout 10m;
                    ssl_session_tickets on;
                    server {
                        listen 127.0.0.1:%2$d ssl%3$s;
                        server_name localhost;
                        ssl_certificate %1$s/chain.pem;
                        ssl_certificate_key %1$s/key.pem;
                        root %1$s/www;
                        add_header X-Connection $connection always;
                        add_header X-Connection-Requests $connection_requests always;
                        add_header X-Ssl-Session-Reused $ssl_session_reused always;
                        add_header X-Ssl-Protocol $ssl_protocol always;
                        location = /ok {
                            default_type text/plain;
                            return 200 "ok\\n";
                        }
                %4$s
                    }
                }
                """.formatted(dir, port, http2 ? " http2" : "", serverConfig);
    }

    /** Polls the port until nginx accepts, or fails with its error log when it exited or never listened. */
    private void awaitListening() throws IOException {
        ChildProcesses.awaitListening("nginx", process, port, START_TIMEOUT, this::errorLog);
    }

    /** Writes a static file under the document root, readable by the worker. */
    public void writeFile(String name, byte[] content) throws IOException {
        Path file = dir.resolve("www").resolve(name);
        Files.write(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    }

    public int port() {
        return port;
    }

    /** {@code https://localhost:port} + path: the certificate names localhost. */
    public String url(String path) {
        return "https://localhost:" + port + path;
    }

    /** The access log's lines so far: {@code connection requests reused protocol uri status bytes}. */
    public List<String> accessLog() {
        Path log = dir.resolve("access.log");
        try {
            return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.US_ASCII) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String errorLog() {
        try {
            Path log = dir.resolve("error.log");
            Path stdout = dir.resolve("stdout.log");
            return (Files.exists(log) ? Files.readString(log) : "(no error log)")
                    + (Files.exists(stdout) ? Files.readString(stdout) : "");
        } catch (IOException e) {
            return "(error log unreadable: " + e + ")";
        }
    }

    /** Stops nginx's master (SIGTERM: a fast shutdown), then kills anything of it still alive. */
    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook runs or ran: nothing left to undo
        }
    }

    private void stop() {
        ChildProcesses.stop(process);
    }
}
