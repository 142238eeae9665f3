package dev.shuttle.benchmarks.client;

import dev.shuttle.client.DrainPolicy;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import java.net.URI;

/**
 * Shuttle for the close() measurement, with one drain policy by name: {@code default} (inline, background, hand-off),
 * {@code bounded} (Go 1.27's background drain within 256 KiB and 50 ms) or {@code none}. A top-level class with a
 * String argument so that {@link BaselineShuttle} can build it against another build of the client.
 */
final class ShuttleUnreadCloser implements UnreadCloser {
    private final HttpClient client;

    ShuttleUnreadCloser(String policy) {
        DrainPolicy drainPolicy = switch (policy) {
            case "default" -> DrainPolicy.defaults();
            case "bounded" -> DrainPolicy.bounded(DrainPolicy.DEFAULT_MAX_BYTES, DrainPolicy.DEFAULT_MAX_TIME);
            case "none" -> DrainPolicy.none();
            default -> throw new IllegalArgumentException("unknown drain policy " + policy);
        };
        client = HttpClient.builder().drainPolicy(drainPolicy).build();
    }

    @Override
    public AutoCloseable open(URI uri) throws Exception {
        return client.send(Request.get(uri));
    }

    @Override
    public void close() {
        client.close();
    }
}
