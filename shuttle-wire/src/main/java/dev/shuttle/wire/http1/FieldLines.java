package dev.shuttle.wire.http1;

import dev.shuttle.wire.FieldSyntax;
import dev.shuttle.wire.Headers;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Field lines (RFC 9112 section 5) as they appear in heads and chunked trailers: {@code name ":" OWS value OWS}.
 * Shared by {@link Http1HeadParser} and {@link ChunkedDecoder} so both apply the same strict rules.
 */
final class FieldLines {
    /**
     * Names as most peers spell them: returning the constant saves one String per field on the hot path. The case
     * must match exactly, so a name is always returned as it arrived.
     */
    private static final String[] COMMON_NAMES = {
            "Host", "Accept", "Accept-Encoding", "Accept-Language", "Authorization", "Cache-Control", "Connection",
            "Content-Length", "Content-Type", "Cookie", "Date", "ETag", "Expect", "Last-Modified", "Location",
            "Server", "Set-Cookie", "Transfer-Encoding", "Upgrade", "User-Agent", "Vary", "Keep-Alive",
            "host", "accept", "accept-encoding", "connection", "content-length", "content-type", "user-agent",
            "transfer-encoding", "date", "server",
    };
    private static final byte[][] COMMON_NAME_BYTES = new byte[COMMON_NAMES.length][];

    static {
        for (int i = 0; i < COMMON_NAMES.length; i++) {
            COMMON_NAME_BYTES[i] = COMMON_NAMES[i].getBytes(StandardCharsets.ISO_8859_1);
        }
    }

    private FieldLines() {
    }

    /**
     * Strips the CR of a CRLF terminator.
     *
     * @param end          end of the line, LF excluded
     * @param allowBareLf  whether a line ended by LF alone is accepted (lenient response parsing)
     * @return the end of the line's content
     */
    static int contentEnd(byte[] line, int start, int end, boolean allowBareLf, String what) throws Http1Exception {
        if (end > start && line[end - 1] == '\r') {
            return end - 1;
        }
        if (!allowBareLf) {
            throw Http1Exception.badRequest("bare LF: " + what + " must end with CRLF");
        }
        return end;
    }

    /**
     * A connection's last value of each common name, for {@link #parse}: a client reading the same server's responses
     * gets the same Server, Content-Type and Content-Length values head after head, and reuses their Strings.
     */
    static String[] newValueCache() {
        return new String[COMMON_NAMES.length];
    }

    /** Parses one field line (terminator already stripped) into {@code into}; {@code what} names it in errors. */
    static void parse(byte[] line, int start, int end, Headers.Builder into, String what) throws Http1Exception {
        parse(line, start, end, into, what, null);
    }

    /**
     * As {@link #parse(byte[], int, int, Headers.Builder, String)}, reusing the value of a common name when it is the
     * one {@code recentValues} (from {@link #newValueCache()}, or null) holds for it, and remembering it otherwise.
     */
    static void parse(byte[] line, int start, int end, Headers.Builder into, String what, String[] recentValues)
            throws Http1Exception {
        int i = start;
        if (i < end && (line[i] == ' ' || line[i] == '\t')) {
            throw Http1Exception.badRequest("obs-fold: " + what + " line starts with whitespace (line folding is not"
                    + " allowed)");
        }
        while (i < end && FieldSyntax.isTokenChar(line[i])) {
            i++;
        }
        if (i == end) {
            throw Http1Exception.badRequest(what + " line without a colon: " + excerpt(line, start, end));
        }
        byte stop = line[i];
        if (stop != ':') {
            if (stop == ' ' || stop == '\t') {
                throw Http1Exception.badRequest("whitespace between " + what + " name and colon: "
                        + excerpt(line, start, end));
            }
            throw Http1Exception.badRequest("invalid character " + hex(stop) + " in " + what + " name: "
                    + excerpt(line, start, end));
        }
        if (i == start) {
            throw Http1Exception.badRequest("empty " + what + " name");
        }
        int common = commonName(line, start, i);
        String name = common >= 0 ? COMMON_NAMES[common] : latin1(line, start, i);
        int valueStart = i + 1;
        while (valueStart < end && (line[valueStart] == ' ' || line[valueStart] == '\t')) {
            valueStart++;
        }
        int valueEnd = end;
        while (valueEnd > valueStart && (line[valueEnd - 1] == ' ' || line[valueEnd - 1] == '\t')) {
            valueEnd--;
        }
        for (int j = valueStart; j < valueEnd; j++) {
            int c = line[j] & 0xff;
            if (!FieldSyntax.isFieldValueChar(c)) {
                throw Http1Exception.badRequest(describeBadValueChar(c) + " in value of " + what + " " + name);
            }
        }
        String value;
        if (common >= 0 && recentValues != null) {
            value = recentValues[common];
            if (value == null || !sameText(value, line, valueStart, valueEnd)) {
                value = latin1(line, valueStart, valueEnd);
                recentValues[common] = value;
            }
        } else {
            value = latin1(line, valueStart, valueEnd);
        }
        into.add(name, value);
    }

    /** Whether {@code text} is exactly the Latin-1 octets {@code bytes[start, end)}. */
    static boolean sameText(String text, byte[] bytes, int start, int end) {
        if (text.length() != end - start) {
            return false;
        }
        for (int k = 0; k < text.length(); k++) {
            if (text.charAt(k) != (char) (bytes[start + k] & 0xff)) {
                return false;
            }
        }
        return true;
    }

    private static String describeBadValueChar(int c) {
        return switch (c) {
            case 0 -> "NUL";
            case '\r' -> "bare CR";
            default -> "invalid character " + hex(c);
        };
    }

    /** The index of the name in {@link #COMMON_NAMES}, or -1. */
    private static int commonName(byte[] line, int start, int end) {
        int length = end - start;
        for (int k = 0; k < COMMON_NAME_BYTES.length; k++) {
            byte[] candidate = COMMON_NAME_BYTES[k];
            if (candidate.length == length && Arrays.equals(candidate, 0, length, line, start, end)) {
                return k;
            }
        }
        return -1;
    }

    static String latin1(byte[] bytes, int start, int end) {
        return new String(bytes, start, end - start, StandardCharsets.ISO_8859_1);
    }

    static String hex(int b) {
        return String.format("0x%02x", b & 0xff);
    }

    /** Up to 64 characters of a bad line for an error message, control characters escaped. */
    static String excerpt(byte[] line, int start, int end) {
        StringBuilder text = new StringBuilder("\"");
        for (int i = start; i < Math.min(end, start + 64); i++) {
            int c = line[i] & 0xff;
            if (c < 0x20 || c == 0x7f) {
                text.append(String.format("\\x%02x", c));
            } else {
                text.append((char) c);
            }
        }
        return text.append(end - start > 64 ? "...\"" : "\"").toString();
    }
}
