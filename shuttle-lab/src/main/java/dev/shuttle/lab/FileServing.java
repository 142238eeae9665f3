package dev.shuttle.lab;

import dev.shuttle.server.HttpServer;
import dev.shuttle.server.Middleware;
import dev.shuttle.server.compress.Compression;
import dev.shuttle.server.files.FileServer;
import dev.shuttle.server.log.AccessLog;
import dev.shuttle.server.routing.Router;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;

/** {@code shuttle serve --files DIR}: a directory served as Python's {@code http.server} would, but by Shuttle. */
final class FileServing {
    private FileServing() {
    }

    /**
     * Starts a file server for {@code dir} on {@code address}:{@code port} (HTTP/1.1 and h2c, or HTTPS with h2 when
     * {@code tls} is given), with gzip and a directory listing when asked, and an access log line per request on
     * {@code out} when {@code verbose}.
     */
    static HttpServer start(Path dir, InetAddress address, int port, SSLContext tls, boolean listing, boolean gzip,
                            boolean verbose, PrintStream out) throws IOException {
        List<Middleware> middleware = new ArrayList<>();
        if (verbose) {
            middleware.add(AccessLog.builder().combined(true).sink(line -> {
                out.println(line);
                out.flush();
            }).build());
        }
        if (gzip) {
            middleware.add(Compression.gzip());
        }
        Router router = new Router().handle("/", FileServer.directory(dir).listing(listing).build());
        middleware.forEach(router::use);
        HttpServer.Builder builder = HttpServer.builder().address(address).port(port).handler(router);
        if (tls != null) {
            builder.tls(tls);
        }
        return builder.start();
    }
}
