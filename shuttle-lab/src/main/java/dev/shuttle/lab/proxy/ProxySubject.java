package dev.shuttle.lab.proxy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The reverse proxies {@code lab proxy} compares. */
public enum ProxySubject {
    /** Shuttle's {@code ReverseProxy} on Shuttle's server and client, in this JVM. */
    SHUTTLE("shuttle"),
    /** nginx, {@code proxy_pass} to an upstream with a {@code keepalive} pool, as a child process. */
    NGINX("nginx"),
    /** Go's {@code httputil.ReverseProxy}, run with {@code go run}. */
    GO("go");

    private final String label;

    ProxySubject(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** {@code shuttle,nginx,go} → subjects; an unknown name is a clear error. */
    public static List<ProxySubject> parseList(String names) {
        List<ProxySubject> subjects = new ArrayList<>();
        for (String name : names.split(",")) {
            String wanted = name.strip().toLowerCase(Locale.ROOT);
            ProxySubject found = null;
            for (ProxySubject subject : values()) {
                if (subject.label.equals(wanted)) {
                    found = subject;
                }
            }
            if (found == null) {
                throw new IllegalArgumentException("unknown proxy \"" + name.strip() + "\": one of shuttle, nginx, go");
            }
            if (!subjects.contains(found)) {
                subjects.add(found);
            }
        }
        return List.copyOf(subjects);
    }
}
