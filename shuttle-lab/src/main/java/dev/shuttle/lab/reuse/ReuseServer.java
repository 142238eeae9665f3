package dev.shuttle.lab.reuse;

import dev.shuttle.lab.clients.Feature;
import dev.shuttle.lab.reuse.peers.JettyPeer;
import dev.shuttle.lab.reuse.peers.NettyPeer;
import dev.shuttle.lab.reuse.peers.NginxPeer;
import dev.shuttle.lab.reuse.peers.PeerServer;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which server a {@code lab reuse} run measures the clients against: the lab's fixture (Shuttle's server, every case,
 * every count at the server), or a peer server over HTTP/2 serving the cases that need no timing from the server
 * (bodies of a size, with or without a declared length, and the JSON ones), its connections counted at the lab's
 * relay in front of it.
 */
public enum ReuseServer {
    SHUTTLE("shuttle", "Shuttle (the lab's fixture)", null),
    JETTY("jetty", "Jetty 12 (HTTP/2, default rate controls)", Set.of("/bytes", "/chunked", "/json",
            "/json-chunked")),
    NETTY("netty", "Netty 4.2 (Http2FrameCodec, default settings)", Set.of("/bytes", "/chunked", "/json",
            "/json-chunked")),
    /** Static files: every body has a length, so neither the chunked cases nor the JSON one without a length. */
    NGINX("nginx", "nginx (HTTP/2, static files)", Set.of("/bytes", "/json"));

    private final String cliName;
    private final String label;
    private final Set<String> paths; // null: every case

    ReuseServer(String cliName, String label, Set<String> paths) {
        this.cliName = cliName;
        this.label = label;
        this.paths = paths;
    }

    public String cliName() {
        return cliName;
    }

    public String label() {
        return label;
    }

    public boolean isPeer() {
        return this != SHUTTLE;
    }

    /** Whether this server serves {@code reuseCase}. */
    public boolean serves(ReuseCase reuseCase) {
        if (paths != null && reuseCase.feature() == Feature.PROXY) {
            return false; // through squid, over HTTP/1.1: the fixture's case only
        }
        return paths == null || paths.contains(reuseCase.pathAndQuery().replaceFirst("\\?.*", ""));
    }

    /** Throws {@link IllegalArgumentException} saying why this server cannot serve {@code reuseCase}. */
    public void check(ReuseCase reuseCase) {
        String path = reuseCase.pathAndQuery().replaceFirst("\\?.*", "");
        if (!serves(reuseCase)) {
            throw new IllegalArgumentException("case " + reuseCase.id() + " cannot run against " + cliName + ": "
                    + (this == NGINX && (path.equals("/chunked") || path.equals("/json-chunked"))
                    ? "nginx sends static files with their length"
                    : reuseCase.feature() == Feature.PROXY ? "it goes through squid over HTTP/1.1 (--server shuttle)"
                    : "it needs the fixture's timing or Connection: close (--server shuttle)"));
        }
    }

    /** Throws {@link IllegalArgumentException} when this server is not measured over {@code protocol}. */
    public void check(ReuseProtocol protocol) {
        if (isPeer() && !protocol.isHttp2()) {
            throw new IllegalArgumentException("--server " + cliName + " serves HTTP/2 only: use --protocol h2c "
                    + "or h2");
        }
    }

    /** Starts this peer server: over TLS with {@code certificate}, or h2c when it is null. */
    public PeerServer startPeer(SelfSignedCertificate certificate) throws IOException {
        return switch (this) {
            case JETTY -> JettyPeer.start(certificate);
            case NETTY -> NettyPeer.start(certificate);
            case NGINX -> NginxPeer.start(certificate, Arrays.stream(ReuseCase.values())
                    .filter(c -> c.pathAndQuery().startsWith("/bytes?n="))
                    .map(c -> Integer.parseInt(c.pathAndQuery().substring("/bytes?n=".length())))
                    .distinct().toList());
            case SHUTTLE -> throw new IllegalStateException("Shuttle is the lab's fixture, not a peer");
        };
    }

    public static ReuseServer byName(String name) {
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        for (ReuseServer s : values()) {
            if (s.cliName.equals(wanted)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown server '" + name + "'; known servers: "
                + Arrays.stream(values()).map(ReuseServer::cliName).collect(Collectors.joining(",")));
    }
}
