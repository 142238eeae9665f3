package dev.shuttle.server.http1;

import dev.shuttle.server.core.StatusText;
import dev.shuttle.server.core.HttpDate;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import dev.shuttle.wire.http1.Http1HeadWriter;
import dev.shuttle.wire.http1.ResponseHead;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The responses the server writes on its own: rejections of bad input and handler failures. Each says
 * {@code Connection: close}: after a framing or limit error the rest of the input cannot be trusted, and after a
 * handler failure the request body is in an unknown state.
 */
final class ErrorResponses {
    /** Error detail echoed to the client, at most this long: enough to debug, too short to reflect much back. */
    private static final int MAX_DETAIL = 200;

    private ErrorResponses() {
    }

    /** Writes a complete {@code status} response with a short plain-text body and flushes it. */
    static void write(OutputStream out, int status, String detail) throws IOException {
        String reason = StatusText.reason(status);
        byte[] body = (status + " " + reason + (detail == null || detail.isEmpty() ? "" : ": " + sanitize(detail))
                + "\n").getBytes(StandardCharsets.UTF_8);
        Headers headers = Headers.of(
                "Date", HttpDate.now(),
                "Content-Type", "text/plain; charset=utf-8",
                "Content-Length", Integer.toString(body.length),
                "Connection", "close");
        out.write(Http1HeadWriter.encode(new ResponseHead(HttpVersion.HTTP_1_1, status, reason, headers)));
        out.write(body);
        out.flush();
    }

    /** Printable ASCII only, shortened: the detail may quote bytes the client sent. */
    static String sanitize(String detail) {
        StringBuilder text = new StringBuilder(Math.min(detail.length(), MAX_DETAIL));
        for (int i = 0; i < detail.length() && text.length() < MAX_DETAIL; i++) {
            char c = detail.charAt(i);
            text.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return text.toString();
    }
}
