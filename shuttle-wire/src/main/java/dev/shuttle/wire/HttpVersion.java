package dev.shuttle.wire;

/** The protocol versions Shuttle speaks. */
public enum HttpVersion {
    /** HTTP/1.0: no keep-alive unless asked for, no chunked bodies. */
    HTTP_1_0("HTTP/1.0"),
    /** HTTP/1.1 (RFC 9112). */
    HTTP_1_1("HTTP/1.1"),
    /** HTTP/2 (RFC 9113). */
    HTTP_2("HTTP/2");

    private final String text;

    HttpVersion(String text) {
        this.text = text;
    }

    /**
     * The version as written on an HTTP/1 start line, e.g. {@code HTTP/1.1}.
     *
     * @return the version's text
     */
    public String text() {
        return text;
    }

    @Override
    public String toString() {
        return text;
    }
}
