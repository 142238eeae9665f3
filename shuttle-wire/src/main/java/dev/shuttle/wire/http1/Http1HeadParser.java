package dev.shuttle.wire.http1;

import dev.shuttle.wire.FieldSyntax;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import java.nio.ByteBuffer;

/**
 * Incremental parser of HTTP/1 request and response heads (RFC 9112 sections 2-5). Feed it bytes as they arrive; it
 * consumes complete lines from the buffer and keeps partial state inside, so any split of the input parses the same
 * and no byte is scanned twice. One parser per connection, reused for each head via {@link #reset()}; not
 * thread-safe.
 *
 * <p>Strict where request smuggling needs it: obs-fold, whitespace between a field name and its colon, NUL, bare CR
 * or bare LF inside a line, and invalid tokens are rejected with 400; a too-long request line with 414; a too-large
 * head or too many fields with 431. An HTTP/1.1 request must carry exactly one Host (400 otherwise). Empty lines
 * before a request line are skipped (RFC 9112 2.2), a bounded number of them.
 *
 * <p>State between calls: which line is expected next (start line or field line), the bytes of a line split across
 * calls (in a {@link LineReader}), the start line's parts once parsed, the fields so far and the head's byte count.
 * Head bytes are counted as received, every line's CRLF included, and bounded by {@link Http1Limits#maxHeadBytes()}.
 * A completed head leaves the parser ready for the next one; calling {@link #reset()} is needed only to abandon a
 * partial head. Responses are parsed a little more leniently than requests: a bare LF ends a line there, since only
 * a server can smuggle through a client, and some old servers still send bare LFs.
 */
public final class Http1HeadParser {
    /** RFC 9112 2.2 asks to skip "at least one" empty line before a request line; a few cover sloppy clients. */
    static final int MAX_LEADING_EMPTY_LINES = 8;

    private enum Kind { NONE, REQUEST, RESPONSE }

    private enum Expecting { START_LINE, FIELD_LINE }

    private final Http1Limits limits;
    private final LineReader lines = new LineReader();

    // All fields below are owned by the thread currently reading the connection.
    private Kind kind = Kind.NONE;
    private Expecting expecting = Expecting.START_LINE;
    private int headBytes;
    private int emptyLinesSkipped;
    private int fieldCount;
    private Headers.Builder fields;
    private String method;
    private String target;
    private HttpVersion version;
    private int status;
    private String reason;
    /** Heads parsed whole; from the second on, values of common names are reused (a persistent connection). */
    private int headsParsed;
    /** {@link FieldLines#newValueCache()}, made with the second head; null before. */
    private String[] recentValues;
    /** The last reason phrase, reused when the next is the same. */
    private String lastReason;

    public Http1HeadParser(Http1Limits limits) {
        this.limits = limits;
    }

    /** {@return the limits this parser enforces, which also bound the body framing of the same connection} */
    public Http1Limits limits() {
        return limits;
    }

    /**
     * Parses a request head from {@code input}, consuming the bytes it uses.
     *
     * @return the head, or null when {@code input} ran out first (call again with more bytes)
     */
    public RequestHead parseRequest(ByteBuffer input) throws Http1Exception {
        begin(Kind.REQUEST);
        try {
            if (!parseLines(input)) {
                return null;
            }
            Headers headers = fields.build();
            int hosts = headers.count("Host");
            if (hosts > 1) {
                throw Http1Exception.badRequest("request has " + hosts + " Host header fields; exactly one allowed");
            }
            if (hosts == 0 && version == HttpVersion.HTTP_1_1) {
                throw Http1Exception.badRequest("HTTP/1.1 request without a Host header field");
            }
            if (hosts == 1) {
                checkHost(headers.first("Host"));
                checkAbsoluteFormAuthority(target, headers.first("Host"));
            }
            RequestHead head = new RequestHead(method, target, version, headers);
            headsParsed++;
            reset();
            return head;
        } catch (Http1Exception e) {
            reset();
            throw e;
        }
    }

    /**
     * Parses a response head from {@code input}, consuming the bytes it uses. Interim (1xx) heads are returned like
     * any other; the caller skips them.
     *
     * @return the head, or null when {@code input} ran out first
     */
    public ResponseHead parseResponse(ByteBuffer input) throws Http1Exception {
        begin(Kind.RESPONSE);
        try {
            if (!parseLines(input)) {
                return null;
            }
            ResponseHead head = new ResponseHead(version, status, reason, fields.build());
            headsParsed++;
            reset();
            return head;
        } catch (Http1Exception e) {
            reset();
            throw e;
        }
    }

    /** True when some bytes of a head have been consumed but the head is not complete yet. */
    public boolean inProgress() {
        return expecting != Expecting.START_LINE || lines.pendingBytes() > 0;
    }

    /** Forgets any partial head, ready for the next message. */
    public void reset() {
        kind = Kind.NONE;
        expecting = Expecting.START_LINE;
        headBytes = 0;
        emptyLinesSkipped = 0;
        fieldCount = 0;
        fields = null;
        method = null;
        target = null;
        version = null;
        reason = null;
        status = 0;
        lines.release();
    }

    private void begin(Kind wanted) {
        if (kind == Kind.NONE) {
            kind = wanted;
        } else if (kind != wanted) {
            throw new IllegalStateException("a " + kind + " head is in progress; reset() before parsing a " + wanted);
        }
    }

    /** Returns true once the empty line ending the head has been consumed. */
    private boolean parseLines(ByteBuffer input) throws Http1Exception {
        while (true) {
            boolean startLine = expecting == Expecting.START_LINE;
            int headBudget = limits.maxHeadBytes() - headBytes;
            int budget = startLine ? Math.min(limits.maxStartLineBytes() + 2, headBudget) : headBudget;
            LineReader.Result result = lines.read(input, budget);
            if (result == LineReader.Result.NEED_MORE) {
                return false;
            }
            if (result == LineReader.Result.TOO_LONG) {
                throw tooLong(startLine && limits.maxStartLineBytes() + 2 <= headBudget);
            }
            byte[] line = lines.array();
            int start = lines.start();
            int end = FieldLines.contentEnd(line, start, lines.end(), kind == Kind.RESPONSE,
                    startLine ? (kind == Kind.REQUEST ? "request line" : "status line") : "field line");
            if (startLine) {
                if (end == start) {
                    if (++emptyLinesSkipped > MAX_LEADING_EMPTY_LINES) {
                        throw Http1Exception.badRequest("more than " + MAX_LEADING_EMPTY_LINES
                                + " empty lines before the start line");
                    }
                    continue;
                }
                if (end - start > limits.maxStartLineBytes()) {
                    throw tooLong(true);
                }
                headBytes += lines.lineBytes();
                if (kind == Kind.REQUEST) {
                    parseRequestLine(line, start, end);
                } else {
                    parseStatusLine(line, start, end);
                }
                fields = Headers.builder();
                if (recentValues == null && headsParsed > 0) {
                    recentValues = FieldLines.newValueCache();
                }
                expecting = Expecting.FIELD_LINE;
                continue;
            }
            headBytes += lines.lineBytes();
            if (end == start) {
                return true;
            }
            if (++fieldCount > limits.maxHeaderCount()) {
                throw new Http1Exception(431, "more than " + limits.maxHeaderCount() + " header fields");
            }
            FieldLines.parse(line, start, end, fields, "header", recentValues);
        }
    }

    /** @param startLineLimit whether the start line's own bound (not the head's) was exceeded */
    private Http1Exception tooLong(boolean startLineLimit) {
        if (startLineLimit) {
            String what = kind == Kind.REQUEST ? "request line" : "status line";
            return new Http1Exception(kind == Kind.REQUEST ? 414 : 400,
                    what + " longer than " + limits.maxStartLineBytes() + " bytes");
        }
        return new Http1Exception(431, "head larger than " + limits.maxHeadBytes() + " bytes");
    }

    private void parseRequestLine(byte[] line, int start, int end) throws Http1Exception {
        int i = start;
        while (i < end && FieldSyntax.isTokenChar(line[i])) {
            i++;
        }
        if (i == start || i == end || line[i] != ' ') {
            throw Http1Exception.badRequest(i == start ? "request line does not start with a method token: "
                    + FieldLines.excerpt(line, start, end)
                    : "malformed request line: " + FieldLines.excerpt(line, start, end));
        }
        int methodEnd = i;
        int targetStart = ++i;
        while (i < end && line[i] > 0x20 && line[i] < 0x7f) {
            i++;
        }
        if (i == targetStart) {
            throw Http1Exception.badRequest("empty request target: " + FieldLines.excerpt(line, start, end));
        }
        if (i == end) {
            throw Http1Exception.badRequest("request line without an HTTP version: "
                    + FieldLines.excerpt(line, start, end));
        }
        if (line[i] != ' ') {
            throw Http1Exception.badRequest("invalid character " + FieldLines.hex(line[i]) + " in request target");
        }
        int targetEnd = i;
        version = parseVersion(line, i + 1, end, "request line");
        method = method(line, start, methodEnd);
        target = FieldLines.latin1(line, targetStart, targetEnd);
    }

    private void parseStatusLine(byte[] line, int start, int end) throws Http1Exception {
        int versionEnd = start + 8;
        if (end < versionEnd + 4 || line[versionEnd] != ' ') {
            throw Http1Exception.badRequest("malformed status line: " + FieldLines.excerpt(line, start, end));
        }
        version = parseVersion(line, start, versionEnd, "status line");
        int code = 0;
        for (int i = versionEnd + 1; i < versionEnd + 4; i++) {
            int digit = line[i] - '0';
            if (digit < 0 || digit > 9) {
                throw Http1Exception.badRequest("status code is not three digits: "
                        + FieldLines.excerpt(line, start, end));
            }
            code = code * 10 + digit;
        }
        if (code < 100) {
            throw Http1Exception.badRequest("status code below 100: " + FieldLines.excerpt(line, start, end));
        }
        int reasonStart = versionEnd + 4;
        if (reasonStart < end) {
            if (line[reasonStart] != ' ') {
                throw Http1Exception.badRequest("status code is not three digits: "
                        + FieldLines.excerpt(line, start, end));
            }
            reasonStart++;
            for (int i = reasonStart; i < end; i++) {
                if (!FieldSyntax.isFieldValueChar(line[i] & 0xff)) {
                    throw Http1Exception.badRequest("invalid character " + FieldLines.hex(line[i])
                            + " in reason phrase");
                }
            }
        }
        status = code;
        if (reasonStart >= end) {
            reason = "";
        } else if (lastReason != null && FieldLines.sameText(lastReason, line, reasonStart, end)) {
            reason = lastReason;
        } else {
            reason = FieldLines.latin1(line, reasonStart, end);
            lastReason = reason;
        }
    }

    /**
     * RFC 9112 3.2: a Host with an invalid value is a 400. Only the characters of {@code uri-host [":" port]} are let
     * through (reg-name, IP literal, percent-encoding), so a Host cannot smuggle a path, userinfo or whitespace into
     * a handler or proxy that builds URLs from it; an empty Host is valid (RFC 9112 3.2).
     */
    private static void checkHost(String host) throws Http1Exception {
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "-._~!$&'()*+,;=%:[]".indexOf(c) >= 0;
            if (!allowed) {
                throw Http1Exception.badRequest("invalid character " + FieldLines.hex(c) + " in Host");
            }
        }
    }

    /**
     * RFC 9112 3.2.2: a server must take the host from an absolute-form target and ignore Host. A proxy in front that
     * routes by one and a handler that reads the other would then see two different hosts, so a request whose two
     * disagree is refused (HAProxy does the same); when they agree, either may be read.
     */
    private static void checkAbsoluteFormAuthority(String target, String host) throws Http1Exception {
        int scheme = target.indexOf("://");
        if (target.startsWith("/") || scheme < 0) {
            return;
        }
        int start = scheme + 3;
        int end = start;
        while (end < target.length() && "/?#".indexOf(target.charAt(end)) < 0) {
            end++;
        }
        int at = target.lastIndexOf('@', end - 1);
        if (at >= start) {
            start = at + 1; // userinfo is no part of the host
        }
        if (!target.regionMatches(true, start, host, 0, host.length()) || end - start != host.length()) {
            throw Http1Exception.badRequest("Host differs from the authority of the absolute-form target");
        }
    }

    private static HttpVersion parseVersion(byte[] line, int start, int end, String what) throws Http1Exception {
        if (end - start == 8 && line[start] == 'H' && line[start + 1] == 'T' && line[start + 2] == 'T'
                && line[start + 3] == 'P' && line[start + 4] == '/' && line[start + 6] == '.'
                && isDigit(line[start + 5]) && isDigit(line[start + 7])) {
            if (line[start + 5] == '1' && line[start + 7] == '1') {
                return HttpVersion.HTTP_1_1;
            }
            if (line[start + 5] == '1' && line[start + 7] == '0') {
                return HttpVersion.HTTP_1_0;
            }
            throw new Http1Exception(505, "HTTP version not supported: " + FieldLines.latin1(line, start, end));
        }
        throw Http1Exception.badRequest("invalid HTTP version in " + what + ": "
                + FieldLines.excerpt(line, start, end));
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    /** The usual methods as constants, saving a String per request. */
    private static String method(byte[] line, int start, int end) {
        int length = end - start;
        if (length == 3 && line[start] == 'G' && line[start + 1] == 'E' && line[start + 2] == 'T') {
            return "GET";
        }
        if (length == 4 && line[start] == 'P' && line[start + 1] == 'O' && line[start + 2] == 'S'
                && line[start + 3] == 'T') {
            return "POST";
        }
        if (length == 4 && line[start] == 'H' && line[start + 1] == 'E' && line[start + 2] == 'A'
                && line[start + 3] == 'D') {
            return "HEAD";
        }
        return FieldLines.latin1(line, start, end);
    }
}
