package dev.shuttle.proxy;

import dev.shuttle.client.BodyPublisher;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The downstream request's body as the upstream request's: streamed as the upstream accepts it (back-pressure both
 * ways: a blocking copy), with the downstream's Content-Length, or chunked when it had none. Not replayable: it can be
 * read once, so the client never retries a request that carries it.
 */
final class DownstreamBody implements BodyPublisher {
    private final InputStream body;
    private final long length;

    DownstreamBody(InputStream body, long length) {
        this.body = body;
        this.length = length;
    }

    @Override
    public long contentLength() {
        return length;
    }

    @Override
    public boolean isReplayable() {
        return false;
    }

    @Override
    public void writeTo(OutputStream out) throws IOException {
        byte[] buffer = new byte[16 * 1024];
        for (int n; (n = body.read(buffer)) >= 0; ) {
            out.write(buffer, 0, n);
        }
    }
}
