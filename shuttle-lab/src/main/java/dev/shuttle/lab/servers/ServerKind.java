package dev.shuttle.lab.servers;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/** The servers {@code lab idle} and {@code lab busy} measure, by their command-line names. */
public enum ServerKind {
    SHUTTLE("shuttle", "Shuttle (parking on)", "shuttle-server-", () -> new ShuttleTarget(true)),
    SHUTTLE_NOPARKING("shuttle-noparking", "Shuttle (parking off)", "shuttle-server-",
            () -> new ShuttleTarget(false)),
    JETTY("jetty", "Jetty 12", "jetty-server-", JettyTarget::new),
    NETTY("netty", "Netty 4.2", "netty-codec-http2-", NettyTarget::new),
    HELIDON("helidon", "Helidon 4", "helidon-webserver-", HelidonTarget::new),
    UNDERTOW("undertow", "Undertow 2", "undertow-core-", UndertowTarget::new),
    TOMCAT("tomcat", "Tomcat 11", "tomcat-embed-core-", TomcatTarget::new);

    private final String cliName;
    private final String label;
    private final String jarPrefix;
    private final Supplier<ServerTarget> target;

    ServerKind(String cliName, String label, String jarPrefix, Supplier<ServerTarget> target) {
        this.cliName = cliName;
        this.label = label;
        this.jarPrefix = jarPrefix;
        this.target = target;
    }

    public String cliName() {
        return cliName;
    }

    public String label() {
        return label;
    }

    public ServerTarget target() {
        return target.get();
    }

    /** The version of the server's jar on the class path ("12.1.14"), or "" when it is not found (e.g. classes/). */
    public String version() {
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            String name = new File(entry).getName();
            if (name.startsWith(jarPrefix) && name.endsWith(".jar")) {
                String version = name.substring(jarPrefix.length(), name.length() - 4);
                if (!version.isEmpty() && Character.isDigit(version.charAt(0))) {
                    return version;
                }
            }
        }
        return "";
    }

    /** Parses "jetty,netty" or "all"; unknown names are an error that lists the known ones. */
    public static List<ServerKind> parseList(String text) {
        if (text.trim().equalsIgnoreCase("all")) {
            return List.of(values());
        }
        Set<ServerKind> kinds = new LinkedHashSet<>();
        for (String part : text.split(",")) {
            String name = part.trim().toLowerCase(Locale.ROOT);
            if (name.isEmpty()) {
                continue;
            }
            kinds.add(byName(name));
        }
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("no server named");
        }
        return new ArrayList<>(kinds);
    }

    public static ServerKind byName(String name) {
        for (ServerKind k : values()) {
            if (k.cliName.equals(name)) {
                return k;
            }
        }
        List<String> known = new ArrayList<>();
        for (ServerKind k : values()) {
            known.add(k.cliName);
        }
        throw new IllegalArgumentException("unknown server '" + name + "' (known: " + String.join(", ", known) + ")");
    }
}
