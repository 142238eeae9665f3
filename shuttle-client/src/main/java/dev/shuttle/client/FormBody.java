package dev.shuttle.client;

import dev.shuttle.client.internal.UriEncoding;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A form, sent as {@code application/x-www-form-urlencoded}: {@code name=value} pairs joined by {@code &}, names and
 * values in UTF-8 and encoded as browsers encode them (a space as {@code +}). Replayable; immutable.
 *
 * <pre>{@code
 * Request.newBuilder(uri).POST(FormBody.builder().add("user", "ada").add("tag", "a").add("tag", "b").build())
 * }</pre>
 */
public final class FormBody implements BodyPublisher {
    /** The media type of every form body. */
    public static final String MEDIA_TYPE = "application/x-www-form-urlencoded";

    private final byte[] encoded;

    private FormBody(byte[] encoded) {
        this.encoded = encoded;
    }

    /** {@return an empty form builder} */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public long contentLength() {
        return encoded.length;
    }

    @Override
    public boolean isReplayable() {
        return true;
    }

    @Override
    public void writeTo(OutputStream out) throws IOException {
        out.write(encoded);
    }

    @Override
    public String contentType() {
        return MEDIA_TYPE;
    }

    /** The encoded form, as sent. */
    @Override
    public String toString() {
        return new String(encoded, StandardCharsets.US_ASCII);
    }

    /** Hand-written builder; fields keep the order they were added in, and a name may repeat. */
    public static final class Builder {
        private final StringBuilder form = new StringBuilder();

        private Builder() {
        }

        /**
         * Adds a field; a name may repeat.
         *
         * @param name the field name, not yet encoded
         * @param value the field value, not yet encoded
         * @return this builder
         */
        public Builder add(String name, String value) {
            if (!form.isEmpty()) {
                form.append('&');
            }
            form.append(UriEncoding.formEncode(Objects.requireNonNull(name, "name"))).append('=')
                    .append(UriEncoding.formEncode(Objects.requireNonNull(value, "value")));
            return this;
        }

        /** {@return the form body, encoded now} */
        public FormBody build() {
            return new FormBody(form.toString().getBytes(StandardCharsets.US_ASCII));
        }
    }
}
