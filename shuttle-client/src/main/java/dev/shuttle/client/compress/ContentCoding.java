package dev.shuttle.client.compress;

import java.util.Locale;

/** The content codings the client decodes by itself (RFC 9110 8.4.1), read from a {@code Content-Encoding} field. */
public enum ContentCoding {
    /** RFC 1952 gzip ({@code x-gzip} is its old name). */
    GZIP,
    /** RFC 9110's "deflate": zlib (RFC 1950); servers that send raw deflate instead are read too, as browsers do. */
    DEFLATE;

    /**
     * The coding to decode for a {@code Content-Encoding} value, or null when there is nothing to decode (no field,
     * {@code identity}) or the client cannot decode it (another coding, or several stacked: the response is then left
     * as it came, its field with it).
     */
    public static ContentCoding of(String contentEncoding) {
        if (contentEncoding == null) {
            return null;
        }
        String coding = contentEncoding.trim().toLowerCase(Locale.ROOT);
        return switch (coding) {
            case "gzip", "x-gzip" -> GZIP;
            case "deflate" -> DEFLATE;
            default -> null;
        };
    }

    /** The coding's name as {@code Response.decodedEncoding()} reports it. */
    public String token() {
        return name().toLowerCase(Locale.ROOT);
    }
}
