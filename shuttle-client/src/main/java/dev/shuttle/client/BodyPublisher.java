package dev.shuttle.client;

import dev.shuttle.client.body.MediaTypes;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A request body. A known {@link #contentLength()} is sent with a Content-Length header, an unknown one (-1) chunked.
 * A {@link #isReplayable() replayable} body can be written again, which a retry or a 307/308 redirect needs; all
 * factories here are replayable (a stream body asks its supplier for a fresh stream each time). A body with a
 * {@link #contentType()} sends it as {@code Content-Type} unless the request sets one.
 */
public interface BodyPublisher {
    /** {@return the body's length in bytes, or -1 when unknown (sent chunked)} */
    long contentLength();

    /** {@return whether {@link #writeTo} may be called more than once, each time writing the same bytes} */
    boolean isReplayable();

    /**
     * Writes the whole body. Must write exactly {@link #contentLength()} bytes when that is known.
     *
     * @param out the request body's stream: framing (chunks or DATA frames) is the client's; do not close it
     * @throws IOException when writing fails; the call fails with it
     */
    void writeTo(OutputStream out) throws IOException;

    /** {@return the media type sent as {@code Content-Type} when the request names none; null (the default): none} */
    default String contentType() {
        return null;
    }

    /**
     * No body at all: no Content-Length for GET/HEAD/DELETE..., {@code Content-Length: 0} for POST/PUT/PATCH.
     *
     * @return the empty body
     */
    static BodyPublisher none() {
        return Bodies.NONE;
    }

    /**
     * {@return {@code bytes} as the body, copied now}
     *
     * @param bytes the body
     */
    static BodyPublisher ofBytes(byte[] bytes) {
        return ofBytes(bytes, 0, bytes.length);
    }

    /**
     * {@return the given range of {@code bytes}, copied now so later changes to the array do not leak into the body}
     *
     * @param bytes the array holding the body
     * @param offset where the body starts in {@code bytes}
     * @param length the body's length
     */
    static BodyPublisher ofBytes(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        return new Bodies.OfBytes(Arrays.copyOfRange(bytes, offset, offset + length));
    }

    /**
     * {@return {@code text} in UTF-8 as the body, with no {@code Content-Type} of its own}
     *
     * @param text the body
     */
    static BodyPublisher ofString(String text) {
        return ofString(text, StandardCharsets.UTF_8);
    }

    /**
     * {@return {@code text} in {@code charset} as the body, with no {@code Content-Type} of its own}
     *
     * @param text the body
     * @param charset the encoding
     */
    static BodyPublisher ofString(String text, Charset charset) {
        return new Bodies.OfBytes(text.getBytes(charset));
    }

    /**
     * {@code text} sent as {@code mediaType}, in the charset the type names, else UTF-8; a {@code text/*} type
     * without a charset gets {@code ; charset=utf-8} added, so the server need not guess.
     *
     * <pre>{@code BodyPublisher.ofString("<a/>", "application/xml")}</pre>
     *
     * @param text the body
     * @param mediaType the {@code Content-Type}, with or without a charset parameter
     * @return a replayable body of known length
     */
    static BodyPublisher ofString(String text, String mediaType) {
        Objects.requireNonNull(text, "text");
        MediaTypes.Typed typed = MediaTypes.withCharset(Objects.requireNonNull(mediaType, "mediaType"));
        return new Bodies.Typed(new Bodies.OfBytes(text.getBytes(typed.charset())), typed.contentType());
    }

    /**
     * JSON text, sent as {@code application/json} in UTF-8 (RFC 8259 8.1: JSON has no other charset).
     *
     * @param json JSON text, as a JSON library wrote it
     * @return a replayable body of known length
     */
    static BodyPublisher ofJson(String json) {
        return ofString(json, "application/json");
    }

    /**
     * Form fields sent as {@code application/x-www-form-urlencoded} (UTF-8; names and values encoded as browsers do),
     * in the map's iteration order. {@link FormBody#builder()} takes repeated names.
     *
     * @param fields the fields, names to values
     * @return a replayable body of known length
     */
    static BodyPublisher ofForm(Map<String, String> fields) {
        FormBody.Builder form = FormBody.builder();
        fields.forEach(form::add);
        return form.build();
    }

    /**
     * {@return a body of unknown length (sent chunked) read from a fresh stream for each attempt}
     *
     * @param streams called once per attempt (a retry or a redirect resends), each time for a stream from the start
     */
    static BodyPublisher ofStream(Supplier<? extends InputStream> streams) {
        return new Bodies.OfStream(Objects.requireNonNull(streams, "streams"), -1);
    }

    /**
     * {@return a body of exactly {@code length} bytes read from a fresh stream for each attempt}
     *
     * @param streams called once per attempt (a retry or a redirect resends), each time for a stream from the start
     * @param length the exact body length, sent as {@code Content-Length}
     */
    static BodyPublisher ofStream(Supplier<? extends InputStream> streams, long length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length);
        }
        return new Bodies.OfStream(Objects.requireNonNull(streams, "streams"), length);
    }

    /**
     * {@return the file's content; its size is taken now and must not change before the request is sent}
     *
     * @param file the file to send; read when the request is written, not now
     */
    static BodyPublisher ofFile(Path file) {
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Bodies.OfStream(() -> {
            try {
                return Files.newInputStream(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, size);
    }
}

/** The built-in publishers. */
final class Bodies {
    static final BodyPublisher NONE = new BodyPublisher() {
        @Override
        public long contentLength() {
            return 0;
        }

        @Override
        public boolean isReplayable() {
            return true;
        }

        @Override
        public void writeTo(OutputStream out) {
        }

        @Override
        public String toString() {
            return "BodyPublisher.none()";
        }
    };

    private Bodies() {
    }

    record OfBytes(byte[] bytes) implements BodyPublisher {
        @Override
        public long contentLength() {
            return bytes.length;
        }

        @Override
        public boolean isReplayable() {
            return true;
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
            out.write(bytes);
        }
    }

    /** A body with a media type of its own. */
    record Typed(BodyPublisher body, String contentType) implements BodyPublisher {
        @Override
        public long contentLength() {
            return body.contentLength();
        }

        @Override
        public boolean isReplayable() {
            return body.isReplayable();
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
            body.writeTo(out);
        }
    }

    record OfStream(Supplier<? extends InputStream> streams, long length) implements BodyPublisher {
        @Override
        public long contentLength() {
            return length;
        }

        @Override
        public boolean isReplayable() {
            return true;
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
            InputStream in;
            try {
                in = streams.get();
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            try (in) {
                in.transferTo(out);
            }
        }
    }
}
