package dev.shuttle.lab.relay;

import java.io.IOException;
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
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Debian's squid for {@code lab reuse}'s proxied case: a forward proxy on 127.0.0.1 with a configuration of its own in
 * a temporary directory (no cache, loopback clients only, CONNECT to any port, a new connection to the origin per
 * request, so the fixture is quiet between cells), in the foreground, as the current user
 * (as {@code proxy} under root, which squid refuses). Its shared memory is named after its port, so it never meets
 * another squid's, and is removed when it stops.
 */
public final class SquidProxy implements AutoCloseable {
    private static final List<Path> PLACES = List.of(Path.of("/usr/sbin/squid"), Path.of("/usr/local/sbin/squid"));
    private static final long START_MILLIS = 15_000;

    private final Path dir;
    private final int port;
    private final String service;
    private final Process process;

    private SquidProxy(Path dir, int port, String service, Process process) {
        this.dir = dir;
        this.port = port;
        this.service = service;
        this.process = process;
    }

    /** The squid binary, when installed. */
    public static Optional<Path> binary() {
        return PLACES.stream().filter(Files::isExecutable).findFirst();
    }

    public static SquidProxy start(Path squid) throws IOException {
        Path dir = Files.createTempDirectory("shuttle-lab-squid");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx")); // squid may run as proxy
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        String service = "shuttlelab" + port;
        String user = "root".equals(System.getProperty("user.name")) ? "proxy" : System.getProperty("user.name");
        Files.writeString(dir.resolve("squid.conf"), """
                http_port 127.0.0.1:%2$d
                pid_filename %1$s/squid.pid
                cache_log %1$s/cache.log
                access_log none
                cache_store_log none
                cache_effective_user %3$s
                coredump_dir %1$s
                cache deny all
                server_persistent_connections off
                cache_mem 4 MB
                icp_port 0
                htcp_port 0
                pinger_enable off
                netdb_filename none
                logfile_rotate 0
                shutdown_lifetime 0 seconds
                acl loopback src 127.0.0.0/8
                http_access allow loopback
                http_access deny all
                """.formatted(dir, port, user), StandardCharsets.US_ASCII);
        Process process = new ProcessBuilder(squid.toString(), "-N", "-n", service, "-f",
                dir.resolve("squid.conf").toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("stdout.log").toFile()).start();
        SquidProxy proxy = new SquidProxy(dir, port, service, process);
        try {
            proxy.awaitListening();
            return proxy;
        } catch (IOException e) {
            proxy.close();
            throw e;
        }
    }

    private void awaitListening() throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_MILLIS);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("squid exited with " + process.exitValue() + "; see " + dir.resolve("cache.log"));
            }
            try (Socket probe = new Socket()) {
                probe.connect(address(), 200);
                return;
            } catch (IOException notYet) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while starting squid", e);
                }
            }
        }
        throw new IOException("squid did not listen within " + START_MILLIS + " ms; see " + dir.resolve("cache.log"));
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    @Override
    public void close() {
        List<ProcessHandle> helpers = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        helpers.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        deleteQuietly(Path.of("/dev/shm"), service + "-");
        deleteQuietly(dir, "");
        try {
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // a temporary directory left behind
        }
    }

    /** Deletes the files of {@code directory} whose names start with {@code prefix}. */
    private static void deleteQuietly(Path directory, String prefix) {
        if (!Files.isDirectory(directory)) {
            return;
        }
        try (Stream<Path> files = Files.list(directory)) {
            files.filter(f -> f.getFileName().toString().startsWith(prefix)).sorted(Comparator.reverseOrder())
                    .forEach(f -> {
                        try {
                            Files.deleteIfExists(f);
                        } catch (IOException ignored) {
                            // left behind
                        }
                    });
        } catch (IOException ignored) {
            // nothing to clean
        }
    }
}
