package dev.shuttle.client.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Debian's squid as a child process: an HTTP proxy on 127.0.0.1, with a configuration of its own (no cache, no
 * neighbours, every log and its pid file under the test's directory, CONNECT to any port), optionally requiring Basic
 * credentials checked by squid's {@code basic_ncsa_auth} helper against a password file written here. It runs in the
 * foreground ({@code -N}), as the current user, or as {@code proxy} when the test runs as root (squid refuses root).
 * Its shared-memory segments carry a name of their own ({@code -n}), so instances never collide, and are removed on
 * {@link #close()}.
 */
public final class SquidProxy implements AutoCloseable {
    private static final List<Path> USUAL_PLACES = List.of(Path.of("/usr/sbin/squid"), Path.of("/usr/local/sbin/squid"));
    private static final Path NCSA_AUTH = Path.of("/usr/lib/squid/basic_ncsa_auth");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);
    private static final int START_ATTEMPTS = 3;

    private final Path dir;
    private final int port;
    private final String service;
    private final Process process;
    private final Thread shutdownHook;

    private SquidProxy(Path dir, int port, String service, Process process) {
        this.dir = dir;
        this.port = port;
        this.service = service;
        this.process = process;
        this.shutdownHook = new Thread(this::stop, "squid-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    public static Optional<Path> binary() {
        return USUAL_PLACES.stream().filter(Files::isExecutable).findFirst();
    }

    /** Whether Basic authentication can be configured: squid's helper and openssl (for the password file). */
    public static boolean canAuthenticate() {
        return Files.isExecutable(NCSA_AUTH) && Files.isExecutable(Path.of("/usr/bin/openssl"));
    }

    /** Starts squid without authentication. */
    public static SquidProxy start(Path squid, Path dir) throws IOException {
        return start(squid, dir, Map.of());
    }

    /** Starts squid; with {@code users} (name to password), every request must carry one's Basic credentials. */
    public static SquidProxy start(Path squid, Path dir, Map<String, String> users) throws IOException {
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx")); // squid may run as proxy
        if (!users.isEmpty()) {
            writePasswords(dir.resolve("passwd"), users);
        }
        IOException last = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            int port = ChildProcesses.freePort();
            String service = "shuttletest" + port;
            Path config = dir.resolve("squid.conf");
            Files.writeString(config, config(dir, port, !users.isEmpty()), StandardCharsets.US_ASCII);
            Files.deleteIfExists(dir.resolve("cache.log"));
            Process process = new ProcessBuilder(squid.toString(), "-N", "-n", service, "-f", config.toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile()).start();
            SquidProxy proxy = new SquidProxy(dir, port, service, process);
            try {
                proxy.awaitListening();
                return proxy;
            } catch (IOException e) {
                proxy.close();
                last = e;
            }
        }
        throw last;
    }

    static String config(Path dir, int port, boolean authenticate) {
        String user = "root".equals(System.getProperty("user.name")) ? "proxy" : System.getProperty("user.name");
        String access = authenticate ? """
                auth_param basic program %1$s %2$s/passwd
                auth_param basic realm shuttle-test
                acl authenticated proxy_auth REQUIRED
                http_access allow authenticated
                """.formatted(NCSA_AUTH, dir) : """
                acl loopback src 127.0.0.0/8
                http_access allow loopback
                """;
        return """
                http_port 127.0.0.1:%2$d
                pid_filename %1$s/squid.pid
                cache_log %1$s/cache.log
                access_log stdio:%1$s/access.log
                cache_store_log none
                cache_effective_user %3$s
                coredump_dir %1$s
                cache deny all
                cache_mem 4 MB
                icp_port 0
                htcp_port 0
                pinger_enable off
                netdb_filename none
                logfile_rotate 0
                shutdown_lifetime 0 seconds
                %4$s
                http_access deny all
                """.formatted(dir, port, user, access);
    }

    private static void writePasswords(Path file, Map<String, String> users) throws IOException {
        StringBuilder lines = new StringBuilder();
        for (Map.Entry<String, String> user : users.entrySet()) {
            Process openssl = new ProcessBuilder("/usr/bin/openssl", "passwd", "-apr1", user.getValue()).start();
            String hash = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            try {
                if (!openssl.waitFor(10, TimeUnit.SECONDS) || openssl.exitValue() != 0 || hash.isEmpty()) {
                    throw new IOException("openssl passwd failed");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
            lines.append(user.getKey()).append(':').append(hash).append('\n');
        }
        Files.writeString(file, lines, StandardCharsets.US_ASCII);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    }

    private void awaitListening() throws IOException {
        ChildProcesses.awaitListening("squid", process, port, START_TIMEOUT, this::log);
    }

    public int port() {
        return port;
    }

    /** {@code http://127.0.0.1:PORT}, or with {@code user:password@} when given. */
    public String url(String userInfo) {
        return "http://" + (userInfo == null ? "" : userInfo + "@") + "127.0.0.1:" + port;
    }

    /** The access log's lines so far (squid writes a CONNECT's line when its tunnel closes). */
    public List<String> accessLog() {
        Path log = dir.resolve("access.log");
        try {
            return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.US_ASCII) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String log() {
        try {
            Path cache = dir.resolve("cache.log");
            Path stdout = dir.resolve("stdout.log");
            return (Files.exists(cache) ? Files.readString(cache) : "(no cache.log)")
                    + (Files.exists(stdout) ? Files.readString(stdout) : "");
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook runs or ran
        }
    }

    private void stop() {
        ChildProcesses.stop(process);
        removeSharedMemory();
    }

    /** Squid leaves its named shared-memory segments behind when stopped: they are this instance's alone. */
    private void removeSharedMemory() {
        Path shm = Path.of("/dev/shm");
        if (!Files.isDirectory(shm)) {
            return;
        }
        List<Path> mine = new ArrayList<>();
        try (var files = Files.list(shm)) {
            files.filter(f -> f.getFileName().toString().startsWith(service + "-")).forEach(mine::add);
        } catch (IOException e) {
            return;
        }
        for (Path file : mine) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // not ours to worry about further
            }
        }
    }
}
