package dev.shuttle.client;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A {@code multipart/form-data} body (RFC 7578), as a browser sends a form with files: text fields and files, each
 * file streamed from its {@link Path} while the request is written, never held in memory. Its length is known (sent
 * with Content-Length) when every part's is, as for files whose size is taken when they are added (and must not
 * change before the request is sent). Replayable, so a redirect or retry sends it again. Immutable.
 *
 * <pre>{@code
 * Request.newBuilder(uri).POST(MultipartBody.builder()
 *         .field("title", "holiday")
 *         .file("photo", Path.of("beach.jpg"), "image/jpeg")
 *         .build())
 * }</pre>
 */
public final class MultipartBody implements BodyPublisher {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] DASHES = {'-', '-'};
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String boundary;
    private final List<Part> parts;
    private final long length;

    private MultipartBody(String boundary, List<Part> parts) {
        this.boundary = boundary;
        this.parts = List.copyOf(parts);
        long total = 0;
        for (Part part : this.parts) {
            long body = part.body.contentLength();
            if (body < 0) {
                total = -1;
                break;
            }
            total += DASHES.length + boundary.length() + CRLF.length + part.head.length + body + CRLF.length;
        }
        this.length = total < 0 ? -1 : total + DASHES.length + boundary.length() + DASHES.length + CRLF.length;
    }

    /** {@return a builder of a {@code multipart/form-data} body} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return the boundary between parts} */
    public String boundary() {
        return boundary;
    }

    @Override
    public long contentLength() {
        return length;
    }

    @Override
    public boolean isReplayable() {
        for (Part part : parts) {
            if (!part.body.isReplayable()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String contentType() {
        return "multipart/form-data; boundary=" + boundary;
    }

    @Override
    public void writeTo(OutputStream out) throws IOException {
        byte[] delimiter = boundary.getBytes(StandardCharsets.US_ASCII);
        for (Part part : parts) {
            out.write(DASHES);
            out.write(delimiter);
            out.write(CRLF);
            out.write(part.head);
            part.body.writeTo(out);
            out.write(CRLF);
        }
        out.write(DASHES);
        out.write(delimiter);
        out.write(DASHES);
        out.write(CRLF);
    }

    /** A part: its header lines (ending with the empty line) and its body. */
    private record Part(byte[] head, BodyPublisher body) {
    }

    /** Hand-written builder; parts keep the order they were added in. */
    public static final class Builder {
        private final List<Part> parts = new ArrayList<>();
        private String boundary;

        private Builder() {
        }

        /**
         * A text field, sent in UTF-8.
         *
         * @param name the field name
         * @param value the field's text
         * @return this builder
         */
        public Builder field(String name, String value) {
            return part(name, null, null, BodyPublisher.ofString(Objects.requireNonNull(value, "value")));
        }

        /**
         * A file, streamed from {@code file} when the request is written, named by its file name, with the media
         * type the platform guesses for it ({@code Files.probeContentType}), else {@code application/octet-stream}.
         *
         * @param name the field name
         * @param file the file to send
         * @return this builder
         */
        public Builder file(String name, Path file) {
            String type;
            try {
                type = Files.probeContentType(file);
            } catch (IOException e) {
                type = null;
            }
            return file(name, file, type == null ? "application/octet-stream" : type);
        }

        /**
         * A file of {@code contentType}, streamed from {@code file}.
         *
         * @param name the field name
         * @param file the file to send
         * @param contentType the part's {@code Content-Type}
         * @return this builder
         */
        public Builder file(String name, Path file, String contentType) {
            Path fileName = file.getFileName();
            return part(name, fileName == null ? "file" : fileName.toString(), contentType,
                    BodyPublisher.ofFile(file));
        }

        /**
         * Any part: {@code filename} and {@code contentType} may be null (a field), {@code body} any publisher (its
         * own content type is used when {@code contentType} is null).
         *
         * @param name the field name
         * @param filename the file name sent in {@code Content-Disposition}, or null
         * @param contentType the part's {@code Content-Type}, or null
         * @param body the part's content
         * @return this builder
         */
        public Builder part(String name, String filename, String contentType, BodyPublisher body) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(body, "body");
            StringBuilder head = new StringBuilder("Content-Disposition: form-data; name=\"").append(escape(name))
                    .append('"');
            if (filename != null) {
                head.append("; filename=\"").append(escape(filename)).append('"');
            }
            head.append("\r\n");
            String type = contentType != null ? contentType : body.contentType();
            if (type != null) {
                dev.shuttle.wire.FieldSyntax.requireValidValue("Content-Type", type);
                head.append("Content-Type: ").append(type).append("\r\n");
            }
            head.append("\r\n");
            parts.add(new Part(head.toString().getBytes(StandardCharsets.UTF_8), body));
            return this;
        }

        /**
         * The boundary (1 to 70 characters of RFC 2046's set). Default: random, 30 characters.
         *
         * @param boundary the boundary, without the leading dashes
         * @return this builder
         */
        public Builder boundary(String boundary) {
            if (boundary.isEmpty() || boundary.length() > 70 || !boundary.matches("[0-9A-Za-z'()+_,./:=?-]+")) {
                throw new IllegalArgumentException("invalid multipart boundary: " + boundary);
            }
            this.boundary = boundary;
            return this;
        }

        /** {@return the body, with its boundary in the content type; files are read when the request is written} */
        public MultipartBody build() {
            return new MultipartBody(boundary != null ? boundary : randomBoundary(), parts);
        }

        /** What browsers do with a quote or a line break in a name: percent-escape it (HTML's form encoding). */
        private static String escape(String text) {
            return text.replace("\"", "%22").replace("\r", "%0D").replace("\n", "%0A");
        }

        private static String randomBoundary() {
            StringBuilder out = new StringBuilder("shuttle-");
            String alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
            for (int i = 0; i < 22; i++) {
                out.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
            }
            return out.toString();
        }
    }
}
