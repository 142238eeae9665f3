package dev.shuttle.benchmarks.server;

import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * Jetty 12 answering every request with the same 1 KiB body: the peer beside Shuttle in the wrk comparison, and the
 * neutral target of the client benchmarks. A few paths serve the client close() measurement
 * ({@code dev.shuttle.benchmarks.client.CloseLatency}); every other path gets the 1 KiB body:
 * <ul>
 *   <li>{@code /size/N}: N bytes with a Content-Length (N up to {@value #MAX_BODY})</li>
 *   <li>{@code /chunked/N}: N bytes, chunked (two writes, so Jetty cannot turn it into a Content-Length)</li>
 *   <li>{@code /late/N/MS}: N bytes chunked at once, the end of the body (last chunk) MS milliseconds later</li>
 *   <li>{@code /stats/connections}: connections this server has accepted so far, as text</li>
 * </ul>
 * The handler never blocks (the end of a late body is written from a timer), so the 1 KiB path is served as before.
 */
final class JettyOneKiBServer implements BenchmarkServer {
    static final int MAX_BODY = 16 * 1024 * 1024;
    private static final byte[] FILLER = filler();

    private final Server server = new Server();
    private final LongAdder connectionsOpened = new LongAdder();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "late-body-timer");
        thread.setDaemon(true);
        return thread;
    });

    JettyOneKiBServer(int port) throws Exception {
        this(port, null);
    }

    /**
     * With {@code tls}: HTTPS with HTTP/1.1 only (an SslConnectionFactory in front of the HTTP/1.1 factory, no ALPN
     * factory), the JDK's SSLEngine, the key store built from the same self-signed certificate as Shuttle's.
     */
    JettyOneKiBServer(int port, SelfSignedCertificate tls) throws Exception {
        ServerConnector connector;
        if (tls == null) {
            connector = new ServerConnector(server);
        } else {
            char[] password = "bench".toCharArray();
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setKeyStore(tls.keyStore(password));
            ssl.setKeyStorePassword(new String(password));
            HttpConfiguration config = new HttpConfiguration();
            config.addCustomizer(new SecureRequestCustomizer(false));
            connector = new ServerConnector(server, new SslConnectionFactory(ssl, "http/1.1"),
                    new HttpConnectionFactory(config));
        }
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        // Jetty's own default idle timeout is 30 s; the idle-connection measurement holds connections longer.
        connector.setIdleTimeout(600_000);
        connector.addEventListener(new Connection.Listener() {
            @Override
            public void onOpened(Connection connection) {
                connectionsOpened.increment();
            }
        });
        server.addConnector(connector);
        byte[] body = OneKiB.BODY;
        server.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                String path = request.getHttpURI().getPath();
                if (path.length() > 1 && handleMeasurementPath(path, request, response, callback)) {
                    return true;
                }
                response.setStatus(200);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
                response.write(true, ByteBuffer.wrap(body), callback);
                return true;
            }
        });
        server.start();
    }

    /** The close() measurement's paths; false for any other path. */
    private boolean handleMeasurementPath(String path, Request request, Response response, Callback callback) {
        String[] parts = path.substring(1).split("/");
        try {
            switch (parts[0]) {
                case "size" -> {
                    int size = size(parts[1]);
                    response.setStatus(200);
                    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
                    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, size);
                    response.write(true, ByteBuffer.wrap(FILLER, 0, size), callback);
                }
                case "chunked" -> {
                    int size = size(parts[1]);
                    int half = size / 2;
                    response.setStatus(200);
                    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
                    response.write(false, ByteBuffer.wrap(FILLER, 0, half), Callback.from(
                            () -> response.write(true, ByteBuffer.wrap(FILLER, half, size - half), callback),
                            callback::failed));
                }
                case "late" -> {
                    int size = size(parts[1]);
                    long delayMillis = Long.parseLong(parts[2]);
                    response.setStatus(200);
                    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
                    response.write(false, ByteBuffer.wrap(FILLER, 0, size), Callback.from(
                            () -> timer.schedule(() -> response.write(true, ByteBuffer.allocate(0), callback),
                                    delayMillis, TimeUnit.MILLISECONDS),
                            callback::failed));
                }
                case "stats" -> {
                    byte[] text = (connectionsOpened.sum() + "\n").getBytes(StandardCharsets.US_ASCII);
                    response.setStatus(200);
                    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
                    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, text.length);
                    response.write(true, ByteBuffer.wrap(text), callback);
                }
                default -> {
                    return false;
                }
            }
        } catch (RuntimeException e) { // a malformed measurement path: say so rather than send 1 KiB
            Response.writeError(request, response, callback, 400, e.toString());
        }
        return true;
    }

    private static int size(String text) {
        int size = Integer.parseInt(text);
        if (size < 0 || size > MAX_BODY) {
            throw new IllegalArgumentException("size out of range: " + size);
        }
        return size;
    }

    private static byte[] filler() {
        byte[] bytes = new byte[MAX_BODY];
        Arrays.fill(bytes, (byte) 'x');
        return bytes;
    }

    @Override
    public int port() {
        return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }

    @Override
    public void close() throws Exception {
        server.stop();
        timer.shutdownNow();
    }
}
