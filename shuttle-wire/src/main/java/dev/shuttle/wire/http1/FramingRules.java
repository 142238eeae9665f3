package dev.shuttle.wire.http1;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import java.util.List;

/**
 * The RFC 9112 section 6 decision of how a message body is framed. Requests are judged strictly, since a server that
 * frames a request differently from a proxy in front of it is open to request smuggling; responses follow the
 * RFC's precedence (Transfer-Encoding over Content-Length) because a client has no such intermediary to disagree
 * with, but still refuse a Content-Length it cannot trust.
 */
final class FramingRules {
    private FramingRules() {
    }

    static BodyFraming ofRequest(RequestHead head) throws Http1Exception {
        Headers headers = head.headers();
        boolean hasTransferEncoding = headers.contains("Transfer-Encoding");
        boolean hasContentLength = headers.contains("Content-Length");
        if (hasTransferEncoding) {
            if (hasContentLength) {
                throw Http1Exception.badRequest("request has both Content-Length and Transfer-Encoding");
            }
            if (head.version() == HttpVersion.HTTP_1_0) {
                throw Http1Exception.badRequest("Transfer-Encoding in an HTTP/1.0 request");
            }
            return requestTransferCodings(headers.all("Transfer-Encoding"));
        }
        if (hasContentLength) {
            return new BodyFraming.ContentLength(contentLength(headers, "request"));
        }
        return BodyFraming.EMPTY;
    }

    static BodyFraming ofResponse(String requestMethod, ResponseHead head) throws Http1Exception {
        int status = head.status();
        if ("HEAD".equals(requestMethod) || status < 200 || status == 204 || status == 304
                || ("CONNECT".equals(requestMethod) && status < 300)) {
            return BodyFraming.EMPTY;
        }
        Headers headers = head.headers();
        if (headers.contains("Transfer-Encoding")) {
            // RFC 9112 6.3 rule 3: Transfer-Encoding overrides Content-Length, which is then ignored.
            int chunked = 0;
            boolean chunkedLast = false;
            for (String value : headers.all("Transfer-Encoding")) {
                for (String element : value.split(",", -1)) {
                    String coding = element.strip();
                    if (coding.isEmpty()) {
                        continue;
                    }
                    chunkedLast = coding.equalsIgnoreCase("chunked");
                    if (chunkedLast) {
                        chunked++;
                    }
                }
            }
            if (chunked > 1) {
                throw Http1Exception.badRequest("response applies chunked more than once in Transfer-Encoding");
            }
            return chunkedLast ? BodyFraming.CHUNKED : BodyFraming.CLOSE_DELIMITED;
        }
        if (headers.contains("Content-Length")) {
            return new BodyFraming.ContentLength(contentLength(headers, "response"));
        }
        return BodyFraming.CLOSE_DELIMITED;
    }

    /** Only {@code chunked}, alone, is implemented: anything else is 400 when it breaks framing, else 501. */
    private static BodyFraming requestTransferCodings(List<String> values) throws Http1Exception {
        String last = null;
        int chunked = 0;
        String unsupported = null;
        for (String value : values) {
            for (String element : value.split(",", -1)) {
                String coding = element.strip();
                if (coding.isEmpty()) {
                    continue; // RFC 9110 5.6.1: empty list elements are ignored
                }
                last = coding;
                if (coding.equalsIgnoreCase("chunked")) {
                    chunked++;
                } else if (unsupported == null) {
                    unsupported = coding;
                }
            }
        }
        if (last == null) {
            throw Http1Exception.badRequest("empty Transfer-Encoding");
        }
        if (!last.equalsIgnoreCase("chunked")) {
            throw Http1Exception.badRequest("Transfer-Encoding of a request must end with chunked: "
                    + String.join(", ", values));
        }
        if (chunked > 1) {
            throw Http1Exception.badRequest("chunked applied more than once in Transfer-Encoding: "
                    + String.join(", ", values));
        }
        if (unsupported != null) {
            throw new Http1Exception(501, "transfer coding not implemented: " + unsupported);
        }
        return BodyFraming.CHUNKED;
    }

    /**
     * The one length that every Content-Length field line and list element agrees on (RFC 9110 8.6 allows repeats
     * of the same value); anything else is an error.
     */
    private static long contentLength(Headers headers, String what) throws Http1Exception {
        long length = -1;
        for (int i = 0; i < headers.size(); i++) {
            if (headers.name(i).equalsIgnoreCase("Content-Length")) {
                length = agreedLength(length, headers.value(i), headers, what);
            }
        }
        return length;
    }

    /** {@code length} (or -1 before the first) checked against every list element of one field line's value. */
    private static long agreedLength(long length, String value, Headers headers, String what) throws Http1Exception {
        int start = 0;
        while (true) {
            int comma = value.indexOf(',', start);
            int end = comma < 0 ? value.length() : comma;
            long parsed = parseDecimal(value, start, end);
            if (parsed < 0) {
                throw Http1Exception.badRequest("invalid Content-Length in " + what + ": \"" + value + '"');
            }
            if (length >= 0 && parsed != length) {
                throw Http1Exception.badRequest("differing Content-Length values in " + what + ": "
                        + String.join(", ", headers.all("Content-Length")));
            }
            length = parsed;
            if (comma < 0) {
                return length;
            }
            start = comma + 1;
        }
    }

    /** 1*DIGIT between optional spaces, or -1 when malformed or above Long.MAX_VALUE. */
    private static long parseDecimal(String text, int start, int end) {
        while (start < end && (text.charAt(start) == ' ' || text.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (text.charAt(end - 1) == ' ' || text.charAt(end - 1) == '\t')) {
            end--;
        }
        if (start == end) {
            return -1;
        }
        long result = 0;
        for (int i = start; i < end; i++) {
            int digit = text.charAt(i) - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            if (result > (Long.MAX_VALUE - digit) / 10) {
                return -1;
            }
            result = result * 10 + digit;
        }
        return result;
    }
}
