package dev.shuttle.client;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;

/**
 * Reads a response's body into a value, for {@link HttpClient#send(Request, BodyHandler)}, which closes the response
 * afterwards: the JDK client's body handlers. It gets the open response (status and headers are there, so a handler
 * may read differently per status) and may stop reading early; what it leaves is drained or dropped by the drain
 * policy as for any closed response.
 *
 * @param <T> what the body becomes
 */
@FunctionalInterface
public interface BodyHandler<T> {
    /**
     * Reads the body of {@code response}, which is open and is closed by the client afterwards.
     *
     * @param response the response, status and headers known, body unread
     * @return the value the call returns
     * @throws IOException when reading fails; the call fails with it
     */
    T read(Response response) throws IOException;

    /** {@return the body as text in its Content-Type's charset (UTF-8 when none), up to the JVM's largest array} */
    static BodyHandler<String> ofString() {
        return Response::string;
    }

    /**
     * {@return the body as text, at most {@code maxBytes} of it; a longer body fails the call}
     *
     * @param maxBytes the most bytes read before the call fails
     */
    static BodyHandler<String> ofString(int maxBytes) {
        return response -> response.string(maxBytes);
    }

    /**
     * {@return the body's bytes, up to the largest array a JVM can hold} For servers you do not control, prefer {@link
     * #ofBytes(int)}.
     */
    static BodyHandler<byte[]> ofBytes() {
        return Response::bytes;
    }

    /**
     * {@return the body's bytes, at most {@code maxBytes} of them; a longer body fails the call}
     *
     * @param maxBytes the most bytes read before the call fails
     */
    static BodyHandler<byte[]> ofBytes(int maxBytes) {
        return response -> response.bytes(maxBytes);
    }

    /**
     * Reads the body to its end and throws it away ({@link Response#discard()}): the connection is kept.
     *
     * @return a handler whose value is null
     */
    static BodyHandler<Void> discarding() {
        return response -> {
            response.discard();
            return null;
        };
    }

    /**
     * {@return the body written to {@code file} (created or replaced); the value is the file}
     *
     * @param file where the body goes
     */
    static BodyHandler<Path> ofFile(Path file) {
        Objects.requireNonNull(file, "file");
        return response -> {
            try (InputStream in = response.body()) {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            }
            return file;
        };
    }
}
