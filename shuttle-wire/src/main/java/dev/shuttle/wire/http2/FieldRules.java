package dev.shuttle.wire.http2;

import dev.shuttle.wire.FieldSyntax;

/**
 * The field rules of RFC 9113 sections 8.2 and 8.3, as predicates shared by {@link Http2FieldCollector} (which
 * turns a violation into a malformed message) and by the head records (which refuse to be built from bad values,
 * so that our own API cannot put a CR or a space into a pseudo-header).
 */
final class FieldRules {
    private FieldRules() {
    }

    /**
     * A regular field name: a token (RFC 9110) without upper-case letters. Stricter than section 8.2.1's octet
     * ranges, so that every accepted name is also valid in {@link dev.shuttle.wire.Headers}.
     */
    static boolean isValidName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!FieldSyntax.isTokenChar(c) || (c >= 'A' && c <= 'Z')) {
                return false;
            }
        }
        return true;
    }

    /**
     * A field value: no NUL, CR or LF, and no leading or trailing space or tab (section 8.2.1); other control
     * characters are refused too, as {@link dev.shuttle.wire.Headers} (RFC 9110's field-value) refuses them.
     */
    static boolean isValidValue(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (!FieldSyntax.isFieldValueChar(value.charAt(i))) {
                return false;
            }
        }
        return value.isEmpty() || (!isWhitespace(value.charAt(0)) && !isWhitespace(value.charAt(value.length() - 1)));
    }

    /** Fields that only make sense on an HTTP/1 connection (section 8.2.2). */
    static boolean isConnectionSpecific(String lowerCaseName) {
        return switch (lowerCaseName) {
            case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade" -> true;
            default -> false;
        };
    }

    static boolean isValidMethod(String method) {
        return FieldSyntax.isToken(method);
    }

    /** RFC 3986 scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ). */
    static boolean isValidScheme(String scheme) {
        if (scheme.isEmpty() || !isAlpha(scheme.charAt(0))) {
            return false;
        }
        for (int i = 1; i < scheme.length(); i++) {
            char c = scheme.charAt(i);
            if (!isAlpha(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.') {
                return false;
            }
        }
        return true;
    }

    /** A non-empty path (or "*") of visible ASCII, as an HTTP/1 request target must be. */
    static boolean isValidPath(String path) {
        return !path.isEmpty() && isVisibleAscii(path);
    }

    /** Host and optional port, without the deprecated userinfo (section 8.3.1). */
    static boolean isValidAuthority(String authority) {
        return !authority.isEmpty() && authority.indexOf('@') < 0 && isVisibleAscii(authority);
    }

    /** A three-digit status other than 101, which HTTP/2 does not support (section 8.6). */
    static boolean isValidStatus(String status) {
        if (status.length() != 3) {
            return false;
        }
        for (int i = 0; i < 3; i++) {
            if (status.charAt(i) < '0' || status.charAt(i) > '9') {
                return false;
            }
        }
        int code = Integer.parseInt(status);
        return code >= 100 && code <= 599 && code != 101;
    }

    private static boolean isVisibleAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAlpha(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t';
    }
}
