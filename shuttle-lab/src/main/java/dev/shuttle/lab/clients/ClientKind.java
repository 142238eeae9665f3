package dev.shuttle.lab.clients;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The clients the lab measures, by the names used everywhere on the command line. */
public enum ClientKind {
    SHUTTLE("shuttle", "Shuttle default", o -> ShuttleLabClient.create(ShuttleLabClient.Policy.DEFAULT, o)),
    SHUTTLE_BOUNDED("shuttle-bounded", "Shuttle bounded (Go 1.27)",
            o -> ShuttleLabClient.create(ShuttleLabClient.Policy.BOUNDED, o)),
    SHUTTLE_NONE("shuttle-none", "Shuttle none (Go 1.26)",
            o -> ShuttleLabClient.create(ShuttleLabClient.Policy.NONE, o)),
    /** HTTP/2: h2c with prior knowledge on http, ALPN h2 on https; one multiplexed connection, resets, no drain. */
    SHUTTLE_H2("shuttle-h2", "Shuttle HTTP/2", ShuttleLabClient::createHttp2),
    JDK("jdk", "JDK HttpClient", JdkLabClient::new),
    OKHTTP("okhttp", "OkHttp 5", OkHttpLabClient::new),
    APACHE("apache", "Apache HC 5 classic", ApacheLabClient::new),
    JETTY("jetty", "Jetty 12 HttpClient", JettyLabClient::new);

    private final String cliName;
    private final String label;
    private final Function<ClientOptions, LabClient> factory;

    ClientKind(String cliName, String label, Function<ClientOptions, LabClient> factory) {
        this.cliName = cliName;
        this.label = label;
        this.factory = factory;
    }

    public String cliName() {
        return cliName;
    }

    public String label() {
        return label;
    }

    public boolean isShuttle() {
        return this == SHUTTLE || this == SHUTTLE_BOUNDED || this == SHUTTLE_NONE || this == SHUTTLE_H2;
    }

    /**
     * Whether the client does {@code feature} by itself: the JDK client decodes no gzip; shuttle-h2 speaks h2c by
     * prior knowledge, which no HTTP proxy carries (through one it would be shuttle on HTTP/1.1).
     */
    public boolean supports(Feature feature) {
        return switch (feature) {
            case GZIP -> this != JDK;
            case PROXY -> this != SHUTTLE_H2;
            case REDIRECTS, CANCEL -> true;
        };
    }

    /** Speaks HTTP/2 to the fixture (all other clients speak HTTP/1.1 there, over TLS too). */
    public boolean isHttp2() {
        return this == SHUTTLE_H2;
    }

    /**
     * Why this client cannot be measured speaking HTTP/2 ({@code tls}: h2 through ALPN, else h2c with prior
     * knowledge), or null when it can ({@link ClientOptions#http2()}).
     */
    public String http2Refusal(boolean tls) {
        return switch (this) {
            case SHUTTLE, SHUTTLE_BOUNDED, SHUTTLE_NONE -> "drain policies are HTTP/1.1's (over HTTP/2 an unread body "
                    + "costs a RST_STREAM); Shuttle over HTTP/2 is shuttle-h2";
            case APACHE -> "Apache HttpClient 5 classic speaks HTTP/1.1 only";
            case JDK -> tls ? null : "the JDK client has no h2c prior knowledge (on http it sends HTTP/1.1 with "
                    + "Upgrade: h2c); measure it with --protocol h2";
            case SHUTTLE_H2, OKHTTP, JETTY -> null;
        };
    }

    /** A fresh client with its own pool. */
    public LabClient create(ClientOptions options) {
        return factory.apply(options);
    }

    public static ClientKind byName(String name) {
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        for (ClientKind kind : values()) {
            if (kind.cliName.equals(wanted)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown client '" + name + "'; known clients: " + allNames());
    }

    /** Parses a comma-separated list such as {@code shuttle,okhttp}; order kept, duplicates dropped. */
    public static List<ClientKind> parseList(String list) {
        LinkedHashSet<ClientKind> kinds = new LinkedHashSet<>();
        for (String part : list.split(",")) {
            if (!part.isBlank()) {
                kinds.add(byName(part));
            }
        }
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("no client named; known clients: " + allNames());
        }
        return new ArrayList<>(kinds);
    }

    public static String allNames() {
        return Arrays.stream(values()).map(ClientKind::cliName).collect(Collectors.joining(","));
    }
}
