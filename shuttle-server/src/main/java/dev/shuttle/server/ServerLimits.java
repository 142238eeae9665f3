package dev.shuttle.server;

import dev.shuttle.wire.http1.Http1Limits;

/**
 * Bounds on what a client may make the server buffer, read or keep. Every violation is answered with its status and
 * the connection is closed; other connections are not affected. {@code ServerLimits.defaults()} is a valid,
 * production-minded configuration; each builder option states its default and where it comes from.
 *
 * @param maxRequestLineBytes    request line without CRLF; over it: 414
 * @param maxHeadBytes           request line plus header fields; over it: 431
 * @param maxHeaderCount         header fields in one head; over it: 431
 * @param maxChunkLineBytes      one chunk-size line with its extensions; over it: 400
 * @param maxTrailerBytes        all trailer fields of a chunked request body; over it: 400
 * @param maxRequestBodyBytes    request body; a larger Content-Length is answered 413 before the handler runs, a
 *                               chunked body fails the handler's read with 413 once it passes the limit
 * @param unreadBodyDiscardBytes how much of a request body the handler left unread the server reads and discards to
 *                               keep the connection alive; when more remains, the connection is closed instead.
 *                               Counted in body bytes: a chunked body's framing after its last byte (the last-chunk
 *                               line, trailers) is read as well
 * @param maxConnections         open connections at most; at the limit the server stops accepting (new connections
 *                               wait in the listen backlog) until one closes; 0 means no limit
 */
public record ServerLimits(int maxRequestLineBytes,
                           int maxHeadBytes,
                           int maxHeaderCount,
                           int maxChunkLineBytes,
                           int maxTrailerBytes,
                           long maxRequestBodyBytes,
                           long unreadBodyDiscardBytes,
                           int maxConnections) {

    /**
     * Checks the limits: the head limits positive, the body, trailer and discard limits and {@code maxConnections} 0 or
     * more.
     */
    public ServerLimits {
        if (maxRequestLineBytes <= 0 || maxHeadBytes <= 0 || maxHeaderCount <= 0 || maxChunkLineBytes <= 0
                || maxTrailerBytes < 0 || maxRequestBodyBytes < 0 || unreadBodyDiscardBytes < 0 || maxConnections < 0) {
            throw new IllegalArgumentException("invalid limits: " + this);
        }
    }

    /** {@return the default limits} */
    public static ServerLimits defaults() {
        return builder().build();
    }

    /** {@return a builder starting from the defaults} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder holding these limits, to change some} */
    public Builder toBuilder() {
        return new Builder()
                .maxRequestLineBytes(maxRequestLineBytes)
                .maxHeadBytes(maxHeadBytes)
                .maxHeaderCount(maxHeaderCount)
                .maxChunkLineBytes(maxChunkLineBytes)
                .maxTrailerBytes(maxTrailerBytes)
                .maxRequestBodyBytes(maxRequestBodyBytes)
                .unreadBodyDiscardBytes(unreadBodyDiscardBytes)
                .maxConnections(maxConnections);
    }

    /** Hand-written builder; every option has a default, so {@code builder().build()} is valid. */
    public static final class Builder {
        /** The HTTP/1.1 codec's server defaults, which these options mirror (the codec is not API). */
        private static final Http1Limits HTTP1 = Http1Limits.serverDefaults();

        private int maxRequestLineBytes = HTTP1.maxStartLineBytes();
        private int maxHeadBytes = HTTP1.maxHeadBytes();
        private int maxHeaderCount = HTTP1.maxHeaderCount();
        private int maxChunkLineBytes = HTTP1.maxChunkLineBytes();
        private int maxTrailerBytes = HTTP1.maxTrailerBytes();
        private long maxRequestBodyBytes = 10L * 1024 * 1024;
        private long unreadBodyDiscardBytes = 256 * 1024;
        private int maxConnections = 0;

        private Builder() {
        }

        /**
         * Default 8 KiB: Jetty, Netty and Tomcat all bound the request line at
         * 8 KiB; longer URLs are answered 414, as RFC 9112 section 3 recommends supporting at least 8000 octets.
         *
         * @param bytes the longest request line
         * @return this builder
         */
        public Builder maxRequestLineBytes(int bytes) {
            this.maxRequestLineBytes = bytes;
            return this;
        }

        /**
         * Default 16 KiB: twice Jetty's and Tomcat's 8 KiB, room for
         * cookie-heavy browsers, still small enough that a head fits one pooled read buffer. nginx allows 4 x 8 KiB
         * large header buffers, Go 1 MiB.
         *
         * @param bytes the largest request head, request line included
         * @return this builder
         */
        public Builder maxHeadBytes(int bytes) {
            this.maxHeadBytes = bytes;
            return this;
        }

        /**
         * Default 100 fields, as Tomcat and Undertow.
         *
         * @param count the most header fields in a request
         * @return this builder
         */
        public Builder maxHeaderCount(int count) {
            this.maxHeaderCount = count;
            return this;
        }

        /**
         * Default 4 KiB: chunk extensions are unused in practice; this only stops a peer from streaming one forever.
         *
         * @param bytes the longest chunk-size line
         * @return this builder
         */
        public Builder maxChunkLineBytes(int bytes) {
            this.maxChunkLineBytes = bytes;
            return this;
        }

        /**
         * Default 16 KiB, the same budget as the head.
         *
         * @param bytes the largest trailer section
         * @return this builder
         */
        public Builder maxTrailerBytes(int bytes) {
            this.maxTrailerBytes = bytes;
            return this;
        }

        /**
         * Default 10 MiB. Go sets no limit (handlers wrap bodies in MaxBytesReader), Jetty and Tomcat limit only form
         * bodies (200 KB / 2 MiB), nginx's client_max_body_size is 1 MiB. A streaming handler never buffers the body,
         * so a limit mainly stops a client from holding a connection and a handler busy forever; 10 MiB passes
         * ordinary uploads and API payloads and is easy to raise (use {@code Long.MAX_VALUE} for none).
         *
         * @param bytes the largest request body
         * @return this builder
         */
        public Builder maxRequestBodyBytes(long bytes) {
            this.maxRequestBodyBytes = bytes;
            return this;
        }

        /**
         * Default 256 KiB, Go's net/http {@code maxPostHandlerReadBytes}: reading that much costs less than a new
         * connection, and a client rarely sends more to a handler that did not want it.
         *
         * @param bytes the most unread body the server reads and throws away to keep a connection
         * @return this builder
         */
        public Builder unreadBodyDiscardBytes(long bytes) {
            this.unreadBodyDiscardBytes = bytes;
            return this;
        }

        /**
         * Default 0, no limit (as Go, Jetty and Netty): an idle connection here costs a few hundred bytes and no
         * thread, so the operating system's file-descriptor limit is the natural bound. Tomcat's NIO connector uses
         * 8192.
         *
         * @param connections the most open connections, 0 for no limit
         * @return this builder
         */
        public Builder maxConnections(int connections) {
            this.maxConnections = connections;
            return this;
        }

        /** {@return the limits} */
        public ServerLimits build() {
            return new ServerLimits(maxRequestLineBytes, maxHeadBytes, maxHeaderCount, maxChunkLineBytes,
                    maxTrailerBytes, maxRequestBodyBytes, unreadBodyDiscardBytes, maxConnections);
        }
    }
}
