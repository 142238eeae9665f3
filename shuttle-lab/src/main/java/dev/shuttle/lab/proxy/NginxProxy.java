package dev.shuttle.lab.proxy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * nginx as the lab starts it: its own configuration, pid, logs and temporary files under a directory of its own, one
 * worker, {@code daemon off} (the process started is the master), listening on 127.0.0.1, {@code proxy_pass} to an
 * {@code upstream} block with a {@code keepalive} pool of 32 and HTTP/1.1 with the Connection field cleared, the
 * setting nginx's documentation gives for upstream keep-alive. Everything else is nginx's default (buffering on,
 * {@code proxy_ignore_client_abort off}).
 */
final class NginxProxy implements RunningProxy {
    private static final List<Path> PLACES = List.of(Path.of("/usr/sbin/nginx"), Path.of("/usr/local/sbin/nginx"),
            Path.of("/usr/local/nginx/sbin/nginx"));

    private final Process process;
    private final int port;
    private final Path dir;
    private final String version;

    private NginxProxy(Process process, int port, Path dir, String version) {
        this.process = process;
        this.port = port;
        this.dir = dir;
        this.version = version;
    }

    /** The nginx binary, or null when none is installed (sbin is not on every user's PATH). */
    static Path binary() {
        return ChildTool.find("nginx", PLACES);
    }

    static NginxProxy start(Path nginx, int upstreamPort) throws IOException {
        Path dir = Files.createTempDirectory("shuttle-lab-nginx-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        // Run as root, nginx's worker is nobody, and it writes buffered responses under tmp.
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
        int port = freePort();
        Path config = dir.resolve("nginx.conf");
        Files.writeString(config, config(dir, port, upstreamPort), StandardCharsets.US_ASCII);
        Process process = new ProcessBuilder(nginx.toString(), "-p", dir.toString(), "-c", config.toString(),
                "-e", dir.resolve("error.log").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile()).start();
        NginxProxy proxy = new NginxProxy(process, port, dir, version(nginx));
        try {
            proxy.awaitListening();
        } catch (IOException e) {
            proxy.close();
            throw e;
        }
        return proxy;
    }

    static String config(Path dir, int port, int upstreamPort) {
        return """
                worker_processes 1;
                daemon off;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                events {
                    worker_connections 4096;
                }
                http {
                    access_log off;
                    client_body_temp_path %1$s/tmp/body;
                    proxy_temp_path %1$s/tmp/proxy;
                    fastcgi_temp_path %1$s/tmp/fastcgi;
                    uwsgi_temp_path %1$s/tmp/uwsgi;
                    scgi_temp_path %1$s/tmp/scgi;
                    upstream lab_upstream {
                        server 127.0.0.1:%3$d;
                        keepalive 32;
                    }
                    server {
                        listen 127.0.0.1:%2$d;
                        location / {
                            proxy_pass http://lab_upstream;
                            proxy_http_version 1.1;
                            proxy_set_header Connection "";
                        }
                    }
                }
                """.formatted(dir, port, upstreamPort);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static String version(Path nginx) {
        try {
            Process process = new ProcessBuilder(nginx.toString(), "-v").redirectErrorStream(true).start();
            String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            process.waitFor(5, TimeUnit.SECONDS);
            int slash = text.indexOf("nginx/");
            return slash < 0 ? "nginx" : text.substring(slash).split("\\s")[0];
        } catch (IOException | InterruptedException e) {
            return "nginx";
        }
    }

    private void awaitListening() throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("nginx exited with " + process.exitValue() + ": " + log());
            }
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
                return;
            } catch (IOException notYet) {
                Thread.onSpinWait();
            }
        }
        throw new IOException("nginx did not listen on 127.0.0.1:" + port + " within 10 s: " + log());
    }

    private String log() {
        try {
            Path error = dir.resolve("error.log");
            return Files.exists(error) ? Files.readString(error) : "(no error log)";
        } catch (IOException e) {
            return "(unreadable error log)";
        }
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String version() {
        return version;
    }

    @Override
    public void close() {
        ChildTool.stop(process);
        LabFiles.deleteTree(dir);
    }
}
