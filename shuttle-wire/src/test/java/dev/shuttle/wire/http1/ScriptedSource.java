package dev.shuttle.wire.http1;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

/**
 * An {@link Http1Source} over scripted chunks, standing in for a socket: {@link #fill()} delivers the next chunk (the
 * blocking read), {@link #fillNow()} only chunks marked as already arrived. When the script runs out, both report the
 * peer's close. Counts calls so tests can assert that nothing blocked.
 */
final class ScriptedSource implements Http1Source {
    private final Deque<byte[]> pending = new ArrayDeque<>();
    private int arrived;
    private ByteBuffer buffer;
    int fillCalls;
    int fillNowCalls;

    /** Starts with {@code initial} in the buffer; {@code later} chunks come one per fill(). */
    ScriptedSource(byte[] initial, byte[]... later) {
        buffer = ByteBuffer.allocate(Math.max(16, initial.length));
        buffer.put(initial).flip();
        pending.addAll(Arrays.asList(later));
    }

    static ScriptedSource ofChunks(byte[] whole, int chunkSize) {
        int count = (whole.length + chunkSize - 1) / chunkSize;
        byte[][] chunks = new byte[count][];
        for (int i = 0; i < count; i++) {
            chunks[i] = Arrays.copyOfRange(whole, i * chunkSize, Math.min(whole.length, (i + 1) * chunkSize));
        }
        return new ScriptedSource(new byte[0], chunks);
    }

    /** Marks the next {@code count} scripted chunks as already arrived, so fillNow() may deliver them. */
    ScriptedSource arrived(int count) {
        arrived += count;
        return this;
    }

    @Override
    public ByteBuffer buffer() {
        return buffer;
    }

    @Override
    public int fill() {
        fillCalls++;
        if (arrived > 0) {
            arrived--;
        }
        return append();
    }

    @Override
    public int fillNow() {
        fillNowCalls++;
        if (pending.isEmpty()) {
            return -1;
        }
        if (arrived == 0) {
            return 0;
        }
        arrived--;
        return append();
    }

    private int append() {
        byte[] chunk = pending.poll();
        if (chunk == null) {
            return -1;
        }
        buffer.compact();
        if (buffer.remaining() < chunk.length) {
            ByteBuffer grown = ByteBuffer.allocate(buffer.position() + chunk.length);
            buffer.flip();
            grown.put(buffer);
            buffer = grown;
        }
        buffer.put(chunk).flip();
        return chunk.length;
    }
}
