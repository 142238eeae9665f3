package dev.shuttle.lab.probe;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** Checks a URL given on the command line and says clearly what is wrong with it. */
public final class ProbeTarget {
    private ProbeTarget() {
    }

    /** Returns the URI, or throws IllegalArgumentException with a message meant for the user. */
    public static URI parse(String text) {
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a valid URL: '" + text + "' (" + e.getReason() + ")");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.isEmpty()) {
            throw new IllegalArgumentException("URL needs a scheme: try http://" + text);
        }
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("only http:// and https:// URLs can be probed, not " + scheme + "://");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new IllegalArgumentException("URL has no host: '" + text + "'");
        }
        if (uri.getRawPath() == null || uri.getRawPath().isEmpty()) {
            uri = uri.resolve("/");
        }
        return uri;
    }
}
