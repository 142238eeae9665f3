package dev.shuttle.wire.http2;

import dev.shuttle.wire.Headers;
import java.util.Locale;

/**
 * Collects the fields of one decoded field block and checks them against RFC 9113 sections 8.2 and 8.3, then hands
 * out a request head, a response head or trailers. Use a new one per block:
 *
 * <pre>{@code
 * Http2FieldCollector fields = Http2FieldCollector.forRequest(streamId);
 * boolean fits = decoder.decode(headers.fragment(), fields::field);
 * if (!fits) -> answer 431 (server) or reset the stream (client)
 * Http2RequestHead head = fields.request();   // throws a stream PROTOCOL_ERROR when malformed
 * }</pre>
 *
 * <p>A malformed field does not stop the decoder (that would desynchronise HPACK): the first problem is recorded and
 * the rest of the block ignored, and {@link #request()}, {@link #response()} or {@link #trailers()} throw it as a
 * stream error PROTOCOL_ERROR (section 8.1.1), which a server answers with RST_STREAM (or a 400 before it) and a
 * client with RST_STREAM.
 *
 * <p>Checked: names are lower-case tokens; values have no NUL, CR, LF or other control characters and no leading or
 * trailing whitespace; pseudo-header fields come before all regular fields, each at most once, and only the ones
 * defined for the kind of message (none in trailers); no connection-specific fields; {@code te} only as
 * {@code trailers}; the request's CONNECT rules, {@code :path} form and a {@code host} that agrees with
 * {@code :authority}; a three-digit {@code :status} other than 101. Not checked here: {@code content-length} against
 * the DATA received, which only the stream can count. Extended CONNECT ({@code :protocol}, RFC 8441) is not
 * supported, so that pseudo-header is refused.
 *
 * <p>Cookie crumbs (section 8.2.3) are joined with "; " into one {@code cookie} field, placed after the others.
 * Not thread-safe: owned by the thread that decodes the block.
 */
public final class Http2FieldCollector {
    private enum Kind { REQUEST, RESPONSE, TRAILERS }

    private final Kind kind;
    private final int streamId;
    private final Headers.Builder headers = Headers.builder();
    private String method;
    private String scheme;
    private String authority;
    private String path;
    private String status;
    private String host;
    private StringBuilder cookie;
    private boolean regularSeen;
    /** The first rule broken, or null. */
    private String problem;

    private Http2FieldCollector(Kind kind, int streamId) {
        this.kind = kind;
        this.streamId = Http2Frame.checkStreamId(streamId, false);
    }

    /** For the first field block a server receives on a stream. */
    public static Http2FieldCollector forRequest(int streamId) {
        return new Http2FieldCollector(Kind.REQUEST, streamId);
    }

    /** For a response head (interim or final) a client receives. */
    public static Http2FieldCollector forResponse(int streamId) {
        return new Http2FieldCollector(Kind.RESPONSE, streamId);
    }

    /** For a trailing field block (END_STREAM set, after the body), either side. */
    public static Http2FieldCollector forTrailers(int streamId) {
        return new Http2FieldCollector(Kind.TRAILERS, streamId);
    }

    /**
     * Takes one decoded field, in block order; never throws. Pass it to the HPACK decoder as {@code fields::field}
     * (this package does not depend on the HPACK one).
     */
    public void field(String name, String value) {
        if (problem != null) {
            return;
        }
        if (!FieldRules.isValidValue(value)) {
            problem = "invalid value of field " + name;
        } else if (name.startsWith(":")) {
            pseudoField(name, value);
        } else {
            regularField(name, value);
        }
    }

    /** The request head. */
    public Http2RequestHead request() throws Http2Exception {
        requireKind(Kind.REQUEST);
        if (problem == null) {
            checkRequest();
        }
        throwProblem();
        return new Http2RequestHead(method, scheme, authority, path, buildHeaders());
    }

    /** The response head. */
    public Http2ResponseHead response() throws Http2Exception {
        requireKind(Kind.RESPONSE);
        if (problem == null && status == null) {
            problem = "missing :status";
        }
        throwProblem();
        return new Http2ResponseHead(Integer.parseInt(status), buildHeaders());
    }

    /** The trailer fields. */
    public Headers trailers() throws Http2Exception {
        requireKind(Kind.TRAILERS);
        throwProblem();
        return buildHeaders();
    }

    private void pseudoField(String name, String value) {
        if (regularSeen) {
            problem = "pseudo-header " + name + " after a regular field";
            return;
        }
        switch (kind) {
            case REQUEST -> {
                switch (name) {
                    case ":method" -> method = once(name, method, value, FieldRules.isValidMethod(value));
                    case ":scheme" -> scheme = once(name, scheme, value, FieldRules.isValidScheme(value));
                    case ":authority" -> authority = once(name, authority, value, FieldRules.isValidAuthority(value));
                    case ":path" -> path = once(name, path, value, FieldRules.isValidPath(value));
                    default -> problem = "pseudo-header " + name + " is not defined for requests";
                }
            }
            case RESPONSE -> {
                if (name.equals(":status")) {
                    status = once(name, status, value, FieldRules.isValidStatus(value));
                } else {
                    problem = "pseudo-header " + name + " is not defined for responses";
                }
            }
            case TRAILERS -> problem = "pseudo-header " + name + " in trailers";
        }
    }

    /** Returns the value to keep, recording a problem for a repeat or an invalid value. */
    private String once(String name, String previous, String value, boolean valid) {
        if (previous != null) {
            problem = "repeated " + name;
        } else if (!valid) {
            problem = "invalid " + name + " " + value;
        }
        return value;
    }

    private void regularField(String name, String value) {
        regularSeen = true;
        if (!FieldRules.isValidName(name)) {
            problem = "invalid field name " + name;
        } else if (FieldRules.isConnectionSpecific(name)) {
            problem = "connection-specific field " + name;
        } else if (name.equals("te") && !value.equalsIgnoreCase("trailers")) {
            problem = "te other than trailers";
        } else if (name.equals("host") && host != null) {
            problem = "repeated host";
        } else if (name.equals("cookie")) {
            if (cookie == null) {
                cookie = new StringBuilder(value);
            } else {
                cookie.append("; ").append(value);
            }
        } else {
            if (name.equals("host")) {
                host = value;
            }
            headers.add(name, value);
        }
    }

    private void checkRequest() {
        if (method == null) {
            problem = "missing :method";
        } else if (Http2RequestHead.isConnect(method)) {
            if (scheme != null || path != null || authority == null) {
                problem = "CONNECT needs :authority and neither :scheme nor :path";
            }
        } else if (scheme == null || path == null) {
            problem = "missing " + (scheme == null ? ":scheme" : ":path");
        } else if ((scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
                && !path.startsWith("/") && !(path.equals("*") && method.equals("OPTIONS"))) {
            problem = ":path must start with / (or be * for OPTIONS)";
        }
        if (problem == null && authority != null && host != null && !host.equalsIgnoreCase(authority)) {
            problem = "host " + host + " differs from :authority " + authority;
        }
    }

    private Headers buildHeaders() {
        if (cookie != null) {
            headers.add("cookie", cookie.toString());
            cookie = null;
        }
        return headers.build();
    }

    private void throwProblem() throws Http2Exception {
        if (problem != null) {
            throw Http2Exception.streamError(streamId, Http2ErrorCode.PROTOCOL_ERROR, "malformed "
                    + kind.name().toLowerCase(Locale.ROOT) + ": " + problem);
        }
    }

    private void requireKind(Kind expected) {
        if (kind != expected) {
            throw new IllegalStateException("collector for " + kind + ", asked for " + expected);
        }
    }
}
