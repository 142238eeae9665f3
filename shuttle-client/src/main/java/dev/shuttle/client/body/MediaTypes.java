package dev.shuttle.client.body;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Locale;

/** The charset parameter of a media type (RFC 9110 8.3.1), read for bodies sent and received alike. */
public final class MediaTypes {
    private MediaTypes() {
    }

    /** A media type as it will be sent, and the charset its text is encoded in. */
    public record Typed(String contentType, Charset charset) {
    }

    /**
     * The charset {@code contentType} names, or {@code fallback} when it names none or one this JDK does not know
     * (a response is still readable then, as browsers read it).
     */
    public static Charset charset(String contentType, Charset fallback) {
        String name = charsetName(contentType);
        if (name == null) {
            return fallback;
        }
        try {
            return Charset.forName(name);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            return fallback;
        }
    }

    /**
     * {@code mediaType} for text about to be sent: its own charset when it names one (which must be known here), else
     * UTF-8, added to {@code text/*} types so the receiver need not guess (others, such as JSON, define their own).
     *
     * @throws IllegalArgumentException for a charset this JDK does not know
     */
    public static Typed withCharset(String mediaType) {
        String name = charsetName(mediaType);
        if (name != null) {
            try {
                return new Typed(mediaType, Charset.forName(name));
            } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
                throw new IllegalArgumentException("unknown charset in media type " + mediaType, e);
            }
        }
        boolean text = mediaType.regionMatches(true, 0, "text/", 0, 5);
        return new Typed(text ? mediaType + "; charset=utf-8" : mediaType, StandardCharsets.UTF_8);
    }

    private static String charsetName(String contentType) {
        if (contentType == null) {
            return null;
        }
        for (String parameter : contentType.split(";")) {
            String p = parameter.trim();
            if (p.length() > 8 && p.regionMatches(true, 0, "charset=", 0, 8)) {
                return p.substring(8).trim().replace("\"", "").toLowerCase(Locale.ROOT);
            }
        }
        return null;
    }
}
