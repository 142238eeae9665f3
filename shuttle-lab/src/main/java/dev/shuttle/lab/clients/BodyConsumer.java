package dev.shuttle.lab.clients;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Uses a body stream the way a {@link BodyUse} says, without closing it: each adapter closes the body itself, the
 * way its own documentation tells users to.
 */
public final class BodyConsumer {
    /** Closing the stream is the adapter's job, so the parser must never close it behind our back. */
    private static final JsonFactory JSON = JsonFactory.builder()
            .disable(com.fasterxml.jackson.core.StreamReadFeature.AUTO_CLOSE_SOURCE)
            .build();

    /** Body bytes read before a {@link BodyUse#CANCEL_MID_BODY} call is cancelled. */
    public static final int CANCEL_AFTER_BYTES = 1024;

    private BodyConsumer() {
    }

    /** Returns the number of body bytes read from {@code body}. */
    public static long consume(InputStream body, BodyUse use) throws IOException {
        return switch (use) {
            case CLOSE_UNREAD -> 0;
            case READ_TO_EOF -> body.transferTo(OutputStream.nullOutputStream());
            case JSON_DECODE -> decodeOneJsonValue(body);
            case CANCEL_MID_BODY -> body.readNBytes(CANCEL_AFTER_BYTES).length; // the caller then cancels
        };
    }

    /**
     * Reads exactly one JSON value, as a real decoder would: the parser pulls whatever one read returns, then stops
     * at the value's end and never asks the stream for its end-of-body.
     */
    private static long decodeOneJsonValue(InputStream body) throws IOException {
        CountingInputStream counted = new CountingInputStream(body);
        try (JsonParser parser = JSON.createParser(counted)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new IOException("empty body where a JSON value was expected");
            }
            parser.skipChildren();
        }
        return counted.count;
    }

    /** Counts bytes read through it; owned by the calling thread. */
    private static final class CountingInputStream extends FilterInputStream {
        private long count; // owned by the reading thread

        CountingInputStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        @Override
        public void close() {
            // the adapter closes the real body
        }
    }
}
