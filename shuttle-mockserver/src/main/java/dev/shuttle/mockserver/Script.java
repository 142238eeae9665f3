package dev.shuttle.mockserver;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Plays a {@link MockResponse} on an {@link Exchange}: the one place that knows what each option means on the wire,
 * shared by both engines, so a script behaves the same on Shuttle's server and on the raw HTTP/1.1 path.
 */
final class Script {
    /** Throttled bodies go out in slices this often: fine enough to look like a steady link. */
    private static final long THROTTLE_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    /** One response being written, as an engine offers it. */
    interface Exchange {
        /** Sets status, fields and framing; nothing is sent before the first flush or the end. */
        void head(MockResponse response) throws IOException;

        OutputStream body();

        /** Sends everything written so far (the head first, if not yet sent). */
        void flush() throws IOException;

        /** Ends the body normally. */
        void end() throws IOException;

        /** Ends the connection (or HTTP/2 stream) where the body stands: in order, or with a reset. */
        void abort(boolean reset) throws IOException;
    }

    /** Waits for the server to close, at most {@code max}. */
    interface Stall {
        void await(Duration max) throws InterruptedException;
    }

    private Script() {
    }

    static void play(MockResponse response, Exchange exchange, Stall stall) throws IOException, InterruptedException {
        sleep(response.headDelay());
        exchange.head(response);
        MockResponse.Fault fault = response.fault();
        if (fault == MockResponse.Fault.STALL_AFTER_HEAD) {
            exchange.flush();
            stall.await(response.stall());
            exchange.abort(false);
            return;
        }
        boolean cut = fault == MockResponse.Fault.TRUNCATE || fault == MockResponse.Fault.RESET;
        long limit = cut ? Math.min(response.length(), response.faultAfterBytes()) : response.length();
        long pauseAt = response.pauseAfterBytes();
        long first = pauseAt >= 0 && pauseAt <= limit ? pauseAt : limit;
        write(response, exchange, 0, first);
        if (first == pauseAt) {
            exchange.flush();
            sleep(response.pause());
        }
        write(response, exchange, first, limit);
        if (cut) {
            exchange.flush();
            exchange.abort(fault == MockResponse.Fault.RESET);
            return;
        }
        if (!response.endDelay().isZero()) {
            exchange.flush();
            sleep(response.endDelay());
        }
        exchange.end();
    }

    /** Writes body bytes [from, to), paced when the response is throttled. */
    private static void write(MockResponse response, Exchange exchange, long from, long to)
            throws IOException, InterruptedException {
        OutputStream out = exchange.body();
        long rate = response.bytesPerSecond();
        if (rate == 0) {
            bytes(response, out, from, to - from);
            return;
        }
        // A fixed schedule from the start, so the average rate holds even when a sleep overshoots.
        long sliceBytes = Math.max(1, rate * THROTTLE_SLICE_NANOS / 1_000_000_000L);
        long start = System.nanoTime();
        long sent = 0;
        long n = to - from;
        while (sent < n) {
            long slice = Math.min(sliceBytes, n - sent);
            bytes(response, out, from + sent, slice);
            sent += slice;
            exchange.flush();
            long due = start + sent * 1_000_000_000L / rate;
            long wait = due - System.nanoTime();
            if (wait > 0 && sent < n) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
        }
    }

    private static void bytes(MockResponse response, OutputStream out, long from, long count) throws IOException {
        byte[] given = response.rawBody();
        if (given == null) {
            MockBodies.write(out, from, count);
        } else if (count > 0) {
            out.write(given, (int) from, (int) count);
        }
    }

    private static void sleep(Duration d) throws InterruptedException {
        if (!d.isZero()) {
            TimeUnit.NANOSECONDS.sleep(d.toNanos());
        }
    }
}
