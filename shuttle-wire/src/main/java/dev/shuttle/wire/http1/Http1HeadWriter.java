package dev.shuttle.wire.http1;

import dev.shuttle.wire.FieldSyntax;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;

/**
 * Encodes heads as the bytes of an HTTP/1 start line and field lines, ending with the empty line. Header fields are
 * valid by construction ({@link Headers.Builder} checks them); the start line's parts are checked here, since a
 * space or CRLF in a method, target or reason phrase would let a caller inject lines into the head.
 */
public final class Http1HeadWriter {
    private static final int CRLF = 2;

    private Http1HeadWriter() {
    }

    /** {@code METHOD target HTTP/1.1 CRLF (name: value CRLF)* CRLF}, fields in order. */
    public static byte[] encode(RequestHead head) {
        String method = head.method();
        String target = head.target();
        if (!FieldSyntax.isToken(method)) {
            throw new IllegalArgumentException("invalid method: \"" + method + '"');
        }
        if (target.isEmpty()) {
            throw new IllegalArgumentException("empty request target");
        }
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                throw new IllegalArgumentException("invalid character 0x" + Integer.toHexString(c)
                        + " in request target");
            }
        }
        String version = versionText(head.version());
        int size = method.length() + 1 + target.length() + 1 + version.length() + CRLF + fieldsSize(head.headers())
                + CRLF;
        byte[] out = new byte[size];
        int at = put(out, 0, method);
        out[at++] = ' ';
        at = put(out, at, target);
        out[at++] = ' ';
        at = put(out, at, version);
        at = crlf(out, at);
        at = putFields(out, at, head.headers());
        crlf(out, at);
        return out;
    }

    /** {@code HTTP/1.1 status reason CRLF (name: value CRLF)* CRLF}, fields in order. */
    public static byte[] encode(ResponseHead head) {
        String reason = head.reason();
        for (int i = 0; i < reason.length(); i++) {
            if (!FieldSyntax.isFieldValueChar(reason.charAt(i))) {
                throw new IllegalArgumentException("invalid character 0x" + Integer.toHexString(reason.charAt(i))
                        + " in reason phrase");
            }
        }
        String version = versionText(head.version());
        int size = version.length() + 5 + reason.length() + CRLF + fieldsSize(head.headers()) + CRLF;
        byte[] out = new byte[size];
        int at = put(out, 0, version);
        int status = head.status();
        out[at++] = ' ';
        out[at++] = (byte) ('0' + status / 100);
        out[at++] = (byte) ('0' + status / 10 % 10);
        out[at++] = (byte) ('0' + status % 10);
        out[at++] = ' ';
        at = put(out, at, reason);
        at = crlf(out, at);
        at = putFields(out, at, head.headers());
        crlf(out, at);
        return out;
    }

    /** Bytes of the field lines, as {@link #putFields} writes them. */
    static int fieldsSize(Headers headers) {
        int size = 0;
        for (int i = 0; i < headers.size(); i++) {
            size += headers.name(i).length() + 2 + headers.value(i).length() + CRLF;
        }
        return size;
    }

    /** Writes {@code name: value CRLF} for every field; returns the index after the last byte written. */
    static int putFields(byte[] out, int at, Headers headers) {
        for (int i = 0; i < headers.size(); i++) {
            at = put(out, at, headers.name(i));
            out[at++] = ':';
            out[at++] = ' ';
            at = put(out, at, headers.value(i));
            at = crlf(out, at);
        }
        return at;
    }

    private static String versionText(HttpVersion version) {
        if (version != HttpVersion.HTTP_1_1 && version != HttpVersion.HTTP_1_0) {
            throw new IllegalArgumentException("not an HTTP/1 version: " + version);
        }
        return version.text();
    }

    /** Latin-1 encoding; every character was checked to be at most 0xff. */
    @SuppressWarnings("deprecation")
    private static int put(byte[] out, int at, String text) {
        int length = text.length();
        text.getBytes(0, length, out, at);
        return at + length;
    }

    private static int crlf(byte[] out, int at) {
        out[at] = '\r';
        out[at + 1] = '\n';
        return at + 2;
    }
}
