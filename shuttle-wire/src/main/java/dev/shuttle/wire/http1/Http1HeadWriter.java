package dev.shuttle.wire.http1;

/** Encodes heads as the bytes of an HTTP/1 start line and field lines, ending with the empty line. */
public final class Http1HeadWriter {
    private Http1HeadWriter() {
    }

    /** {@code METHOD target HTTP/1.1 CRLF (name: value CRLF)* CRLF}, fields in order. */
    public static byte[] encode(RequestHead head) {
        throw new UnsupportedOperationException("TODO(wire)");
    }

    /** {@code HTTP/1.1 status reason CRLF (name: value CRLF)* CRLF}, fields in order. */
    public static byte[] encode(ResponseHead head) {
        throw new UnsupportedOperationException("TODO(wire)");
    }
}
