package dev.shuttle.client.internal;

import java.net.IDN;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * What a request URI needs before it goes on the wire: characters beyond ASCII mapped as RFC 3987 3.1 maps an IRI
 * (UTF-8, percent-encoded; the host through IDNA), and query parameters encoded as WHATWG's
 * {@code application/x-www-form-urlencoded}, which is also how form bodies are encoded.
 */
public final class UriEncoding {
    private UriEncoding() {
    }

    /**
     * {@code uri} with every character beyond ASCII encoded: the path, query and fragment as UTF-8 percent-escapes, an
     * internationalised host name in its ASCII form. An ASCII URI comes back as it is.
     *
     * @throws IllegalArgumentException when the host is not a valid internationalised domain name
     */
    public static URI toAscii(URI uri) {
        String text = uri.toString();
        if (isAscii(text)) {
            return uri;
        }
        URI withHost = uri;
        if (uri.getHost() == null && uri.getRawAuthority() != null && uri.getScheme() != null) {
            withHost = URI.create(uri.getScheme() + "://" + asciiAuthority(uri.getRawAuthority())
                    + rest(uri.getRawPath(), uri.getRawQuery(), uri.getRawFragment()));
        }
        return URI.create(withHost.toASCIIString());
    }

    /** {@code uri} with {@code name=value} appended to its query, both form-encoded. */
    public static URI withQueryParameter(URI uri, String name, String value) {
        String pair = formEncode(name) + "=" + formEncode(value);
        String query = uri.getRawQuery();
        String joined = query == null || query.isEmpty() ? pair : query + "&" + pair;
        return URI.create(uri.getScheme() + "://" + uri.getRawAuthority()
                + rest(uri.getRawPath(), joined, uri.getRawFragment()));
    }

    /**
     * WHATWG's {@code application/x-www-form-urlencoded} byte serializer over UTF-8: ASCII letters, digits and
     * {@code *-._} as they are, a space as {@code +}, every other byte as {@code %XX}.
     */
    public static String formEncode(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(bytes.length + 8);
        for (byte b : bytes) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '*' || c == '-' || c == '.' || c == '_') {
                out.append((char) c);
            } else if (c == ' ') {
                out.append('+');
            } else {
                out.append('%').append(HEX[c >>> 4]).append(HEX[c & 0xf]);
            }
        }
        return out.toString();
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    /** ASCII that {@link URI} refuses anywhere but that servers write into Location fields unescaped. */
    private static final String ILLEGAL = " \"<>\\^`{|}";

    /**
     * {@code text} with the ASCII characters that no URI may hold (space, quote, angle brackets, backslash, caret,
     * backtick, braces, bar) percent-encoded, as browsers and Go read a sloppy {@code Location}. Characters beyond
     * ASCII stay (a URI holds them; {@link #toAscii} maps them later).
     */
    public static String escapeIllegal(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean illegal = c < 0x20 || c == 0x7f || ILLEGAL.indexOf(c) >= 0;
            if (illegal && out == null) {
                out = new StringBuilder(text.length() + 8).append(text, 0, i);
            }
            if (out != null) {
                if (illegal) {
                    out.append('%').append(HEX[c >>> 4]).append(HEX[c & 0xf]);
                } else {
                    out.append(c);
                }
            }
        }
        return out == null ? text : out.toString();
    }

    private static String asciiAuthority(String authority) {
        int at = authority.lastIndexOf('@');
        String userInfo = at < 0 ? "" : authority.substring(0, at + 1);
        String hostPort = authority.substring(at + 1);
        int colon = hostPort.lastIndexOf(':');
        String host = colon < 0 ? hostPort : hostPort.substring(0, colon);
        String port = colon < 0 ? "" : hostPort.substring(colon);
        return userInfo + IDN.toASCII(host, IDN.USE_STD3_ASCII_RULES) + port;
    }

    private static String rest(String path, String query, String fragment) {
        return (path == null ? "" : path) + (query == null ? "" : "?" + query)
                + (fragment == null ? "" : "#" + fragment);
    }

    private static boolean isAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }
}
