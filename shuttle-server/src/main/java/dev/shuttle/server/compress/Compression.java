package dev.shuttle.server.compress;

import dev.shuttle.server.Handler;
import dev.shuttle.server.Middleware;
import dev.shuttle.server.Request;
import dev.shuttle.server.Response;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.zip.Deflater;

/**
 * Middleware that gzips response bodies for clients that accept it ({@code Accept-Encoding: gzip}), when the body's
 * type is compressible and it is at least {@link Builder#minimumBytes} long; never a partial response (206, a
 * {@code Content-Range}), a body that already has a {@code Content-Encoding}, or one marked
 * {@code Cache-Control: no-transform}. A response whose type is compressible says {@code Vary: Accept-Encoding}
 * whether or not this client got it compressed, so caches keep the two apart. The decision waits for the first
 * {@code minimumBytes} of the body (or its declared length), then the body streams through the compressor, which
 * {@code flush()} empties (a sync flush), so streaming responses stay streaming. A compressed body loses its
 * Content-Length and its strong ETag becomes weak (the bytes differ; conditional requests still match).
 *
 * <pre>{@code
 * router.use(Compression.gzip());
 * }</pre>
 */
public final class Compression {
    /** The types compressed by default: text, and the structured-text and uncompressed binary formats of the web. */
    public static final Predicate<String> DEFAULT_TYPES = Compression::compressibleByDefault;

    private static final Set<String> COMPRESSIBLE = Set.of("application/json", "application/javascript",
            "application/xml", "application/xhtml+xml", "application/wasm", "application/manifest+json",
            "application/x-ndjson", "application/ld+json", "application/graphql-response+json", "image/svg+xml",
            "image/bmp", "image/vnd.microsoft.icon", "font/ttf", "font/otf", "application/vnd.ms-fontobject");

    private final int minimumBytes;
    private final int level;
    private final Predicate<String> types;

    private Compression(Builder builder) {
        this.minimumBytes = builder.minimumBytes;
        this.level = builder.level;
        this.types = builder.types;
    }

    /**
     * gzip with the defaults.
     *
     * @return the gzip middleware
     */
    public static Middleware gzip() {
        return builder().build();
    }

    /** {@return a builder starting from the defaults} */
    public static Builder builder() {
        return new Builder();
    }

    private Handler wrap(Handler next) {
        return (request, response) -> {
            if (!acceptsGzip(request.header("Accept-Encoding"))) {
                // Still say that the answer depends on Accept-Encoding, once the type is known.
                next.handle(request, new VaryingResponse(response, types));
                return;
            }
            CompressingResponse compressing = new CompressingResponse(response, this);
            boolean done = false;
            try {
                next.handle(request, compressing);
                done = true;
            } finally {
                compressing.finish(done);
            }
        };
    }

    int minimumBytes() {
        return minimumBytes;
    }

    int level() {
        return level;
    }

    boolean compressible(String contentType) {
        return contentType != null && types.test(mediaType(contentType));
    }

    /** The type without parameters, lower case: {@code text/html; charset=utf-8} gives {@code text/html}. */
    static String mediaType(String contentType) {
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
    }

    private static boolean compressibleByDefault(String type) {
        if (type.equals("text/event-stream")) {
            return false; // events must reach the client as written; some proxies buffer compressed streams
        }
        return type.startsWith("text/") || COMPRESSIBLE.contains(type) || type.endsWith("+json")
                || type.endsWith("+xml");
    }

    /**
     * Whether {@code Accept-Encoding} allows gzip (RFC 9110 12.5.3): listed ({@code gzip} or {@code x-gzip}) with a
     * q-value above 0, or covered by {@code *} with one, and not refused with {@code gzip;q=0}.
     */
    static boolean acceptsGzip(String header) {
        if (header == null) {
            return false;
        }
        Boolean gzip = null;
        boolean star = false;
        for (String element : header.split(",")) {
            String[] parts = element.split(";");
            String coding = parts[0].strip().toLowerCase(Locale.ROOT);
            boolean allowed = quality(parts) > 0;
            if (coding.equals("gzip") || coding.equals("x-gzip")) {
                gzip = allowed;
            } else if (coding.equals("*")) {
                star = allowed;
            }
        }
        return gzip != null ? gzip : star;
    }

    private static double quality(String[] parts) {
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].strip();
            if (parameter.length() > 2 && (parameter.charAt(0) == 'q' || parameter.charAt(0) == 'Q')
                    && parameter.charAt(1) == '=') {
                try {
                    return Double.parseDouble(parameter.substring(2).strip());
                } catch (NumberFormatException e) {
                    return 0; // an invalid weight: not acceptable
                }
            }
        }
        return 1;
    }

    /** Hand-written builder; every option has a default. */
    public static final class Builder {
        private int minimumBytes = 1024;
        private int level = Deflater.DEFAULT_COMPRESSION;
        private Predicate<String> types = DEFAULT_TYPES;

        private Builder() {
        }

        /**
         * Default 1024 bytes: a smaller body fits a packet either way, and gzip's header, trailer and CPU cost more
         * than they save (Go's gziphandler uses 1400, nginx's {@code gzip_min_length} 20, Jetty 32).
         *
         * @param bytes the smallest body compressed
         * @return this builder
         */
        public Builder minimumBytes(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("negative minimumBytes: " + bytes);
            }
            this.minimumBytes = bytes;
            return this;
        }

        /**
         * Default {@link Deflater#DEFAULT_COMPRESSION} (level 6, as nginx's and Go's): 1 is fastest, 9 smallest.
         *
         * @param level the deflate level, 1 to 9, or {@link Deflater#DEFAULT_COMPRESSION}
         * @return this builder
         */
        public Builder level(int level) {
            if ((level < 1 || level > 9) && level != Deflater.DEFAULT_COMPRESSION) {
                throw new IllegalArgumentException("level must be 1..9: " + level);
            }
            this.level = level;
            return this;
        }

        /**
         * Default {@link #DEFAULT_TYPES}: {@code text/*} but event streams, JSON, JavaScript, XML, SVG, WebAssembly,
         * uncompressed fonts; images, audio, video and archives are compressed already. Tested against the media
         * type without parameters, in lower case.
         *
         * @param types which media types are compressed
         * @return this builder
         */
        public Builder types(Predicate<String> types) {
            this.types = Objects.requireNonNull(types, "types");
            return this;
        }

        /** {@return the compression middleware} */
        public Middleware build() {
            Compression compression = new Compression(this);
            return compression::wrap;
        }
    }

    /** Not compressing for this client: only adds {@code Vary} when the type turns out compressible. */
    private static final class VaryingResponse extends dev.shuttle.server.ForwardingResponse {
        private final Predicate<String> types;

        VaryingResponse(Response delegate, Predicate<String> types) {
            super(delegate);
            this.types = types;
        }

        @Override
        public Response header(String name, String value) {
            super.header(name, value);
            if (name.equalsIgnoreCase("Content-Type") && value != null && types.test(mediaType(value))) {
                Vary.addAcceptEncoding(delegate());
            }
            return this;
        }
    }
}
