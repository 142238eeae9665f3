package dev.shuttle.wire.http2;

import dev.shuttle.wire.Headers;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Turns heads into the field lists an HPACK encoder takes (name0, value0, name1, value1, ...), following RFC 9113
 * section 8.2: pseudo-header fields first, names in lower case, connection-specific fields left out. The reverse of
 * {@link Http2FieldCollector}, and lenient where that is strict: fields that HTTP/2 cannot carry are dropped, not
 * refused, so a head built for HTTP/1 can be sent as is.
 *
 * <ul>
 *   <li>Dropped: {@code connection}, {@code keep-alive}, {@code proxy-connection}, {@code transfer-encoding},
 *       {@code upgrade}, every field the {@code connection} field names, and {@code te} unless it lists
 *       {@code trailers} (then it goes as {@code te: trailers}).</li>
 *   <li>Values lose leading and trailing spaces and tabs, which HTTP/2 forbids.</li>
 *   <li>{@code host}: a request without {@code :authority} sends its value as {@code :authority}; it is never sent
 *       as a field (section 8.3.1 asks clients to prefer {@code :authority}).</li>
 *   <li>{@code cookie} is split into crumbs at "; " (section 8.2.3), so that each crumb can be indexed on its
 *       own.</li>
 * </ul>
 */
public final class Http2Fields {
    /** {@code :status} values up to 599, made once: a response's status is the one field every response has. */
    private static final String[] STATUS_TEXT = new String[600];

    static {
        for (int status = 100; status < STATUS_TEXT.length; status++) {
            STATUS_TEXT[status] = Integer.toString(status);
        }
    }

    private Http2Fields() {
    }

    /** The fields of a request head. */
    public static List<String> request(Http2RequestHead head) {
        List<String> fields = new ArrayList<>(2 * (head.headers().size() + 4));
        add(fields, ":method", head.method());
        if (head.scheme() != null) {
            add(fields, ":scheme", head.scheme());
        }
        String authority = head.authority() != null ? head.authority() : head.headers().first("host");
        if (authority != null) {
            if (!FieldRules.isValidAuthority(authority)) {
                throw new IllegalArgumentException("invalid host " + authority);
            }
            add(fields, ":authority", authority);
        }
        if (head.path() != null) {
            add(fields, ":path", head.path());
        }
        addRegular(fields, head.headers(), true);
        return fields;
    }

    /** The fields of a response head. */
    public static List<String> response(Http2ResponseHead head) {
        return response(head.status(), head.headers(), null, null);
    }

    /**
     * The fields of a response head whose {@code status} is valid (100..999, not 101), followed by
     * {@code content-length} and {@code date} when not null (the server's own, added without copying the head).
     */
    public static List<String> response(int status, Headers headers, String contentLength, String date) {
        List<String> fields = new ArrayList<>(2 * (headers.size() + 3));
        add(fields, ":status", status < STATUS_TEXT.length ? STATUS_TEXT[status] : Integer.toString(status));
        addRegular(fields, headers, false);
        if (contentLength != null) {
            add(fields, "content-length", contentLength);
        }
        if (date != null) {
            add(fields, "date", date);
        }
        return fields;
    }

    /** The fields of a trailing block. */
    public static List<String> trailers(Headers trailers) {
        List<String> fields = new ArrayList<>(2 * trailers.size());
        addRegular(fields, trailers, false);
        return fields;
    }

    private static void addRegular(List<String> fields, Headers headers, boolean request) {
        boolean teSent = false;
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.name(i).toLowerCase(Locale.ROOT);
            String value = trimWhitespace(headers.value(i));
            if (FieldRules.isConnectionSpecific(name) || headers.containsToken("connection", name)
                    || (request && name.equals("host"))) {
                continue;
            }
            if (name.equals("te")) {
                if (!teSent && headers.containsToken("te", "trailers")) {
                    add(fields, "te", "trailers");
                    teSent = true;
                }
                continue;
            }
            if (name.equals("cookie")) {
                for (String crumb : value.split("; ")) {
                    if (!crumb.isEmpty()) {
                        add(fields, name, crumb);
                    }
                }
                continue;
            }
            add(fields, name, value);
        }
    }

    /**
     * HTTP/2 refuses values with leading or trailing space or tab (section 8.2.1); HTTP/1 only calls it OWS. Returns
     * {@code value} itself when there is nothing to trim.
     */
    public static String trimWhitespace(String value) {
        int start = 0;
        int end = value.length();
        while (start < end && (value.charAt(start) == ' ' || value.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (value.charAt(end - 1) == ' ' || value.charAt(end - 1) == '\t')) {
            end--;
        }
        return start == 0 && end == value.length() ? value : value.substring(start, end);
    }

    private static void add(List<String> fields, String name, String value) {
        fields.add(name);
        fields.add(value);
    }
}
