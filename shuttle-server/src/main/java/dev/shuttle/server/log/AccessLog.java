package dev.shuttle.server.log;

import dev.shuttle.server.ClientGoneException;
import dev.shuttle.server.ForwardingResponse;
import dev.shuttle.server.Handler;
import dev.shuttle.server.Middleware;
import dev.shuttle.server.Request;
import dev.shuttle.server.Response;
import dev.shuttle.wire.HttpVersion;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Middleware that logs one line per request in the Common or Combined Log Format, with the time taken appended:
 *
 * <pre>
 * 127.0.0.1 - - [01/May/2024:10:00:00 +0000] "GET /a.txt HTTP/1.1" 200 36 0.004
 * 127.0.0.1 - - [01/May/2024:10:00:00 +0000] "GET /a.txt HTTP/2.0" 200 36 "https://ref/" "curl/8.5" 0.004
 * </pre>
 *
 * The request line carries the protocol ({@code HTTP/2.0} for HTTP/2, as nginx and Go write it); the status is the
 * one sent (500 when the handler failed before answering, nginx's 499 when the client went away first); bytes are the
 * body bytes the handler's response sent on (after compression, when {@code Compression} is inside this middleware),
 * {@code -} for none; the last field is the duration in seconds with millisecond precision, from the request's
 * arrival at this middleware to the end of its response. Quoted fields escape {@code "}, {@code \}, control and
 * non-ASCII bytes as {@code \xHH}, so a request cannot forge a log line. Lines go to {@code System.Logger}
 * {@code dev.shuttle.server.access} at INFO unless a sink is given. Off unless added: a server logs nothing per
 * request by default.
 */
public final class AccessLog {
    /** The logger the lines go to by default. */
    public static final String LOGGER = "dev.shuttle.server.access";

    private static final String[] MONTHS =
            {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

    private final boolean combined;
    private final Consumer<String> sink;
    private final Clock clock;

    private AccessLog(Builder builder) {
        this.combined = builder.combined;
        this.sink = builder.sink;
        this.clock = builder.clock;
    }

    /**
     * Common Log Format (plus the duration) to the {@value #LOGGER} logger.
     *
     * @return the access-log middleware
     */
    public static Middleware common() {
        return builder().build();
    }

    /**
     * Combined Log Format (Common, then Referer and User-Agent; plus the duration) to the {@value #LOGGER} logger.
     *
     * @return the access-log middleware
     */
    public static Middleware combined() {
        return builder().combined(true).build();
    }

    /** {@return a builder starting from the Common Log Format to the {@value #LOGGER} logger} */
    public static Builder builder() {
        return new Builder();
    }

    private Handler wrap(Handler next) {
        return (request, response) -> {
            long start = System.nanoTime();
            long epochMillis = clock.millis();
            Counting counting = new Counting(response);
            int status = -1;
            try {
                next.handle(request, counting);
            } catch (Throwable t) {
                // Not answered: the server sends 500, or nothing to a client that went away (nginx's 499).
                status = clientWentAway(t) ? 499 : counting.isCommitted() ? counting.status() : 500;
                throw t;
            } finally {
                long bytes = request.method().equals("HEAD") ? 0 : counting.bytes;
                sink.accept(line(request, status < 0 ? counting.status() : status, bytes, epochMillis,
                        System.nanoTime() - start));
            }
        };
    }

    private static boolean clientWentAway(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ClientGoneException) {
                return true;
            }
        }
        return false;
    }

    String line(Request request, int status, long bytes, long epochMillis, long nanos) {
        StringBuilder line = new StringBuilder(160);
        InetSocketAddress remote = request.remoteAddress();
        line.append(remote == null || remote.getAddress() == null ? "-" : remote.getAddress().getHostAddress());
        line.append(" - - [");
        timestamp(line, epochMillis);
        line.append("] \"");
        escape(line, request.method() + " " + request.target() + " " + protocol(request.version()));
        line.append("\" ").append(status).append(' ');
        if (bytes > 0) {
            line.append(bytes);
        } else {
            line.append('-');
        }
        if (combined) {
            line.append(" \"");
            escape(line, orDash(request.header("Referer")));
            line.append("\" \"");
            escape(line, orDash(request.header("User-Agent")));
            line.append('"');
        }
        long micros = nanos / 1000;
        line.append(' ').append(micros / 1_000_000).append('.');
        long millis = micros / 1000 % 1000;
        line.append((char) ('0' + millis / 100)).append((char) ('0' + millis / 10 % 10))
                .append((char) ('0' + millis % 10));
        return line.toString();
    }

    private static String protocol(HttpVersion version) {
        return version == HttpVersion.HTTP_2 ? "HTTP/2.0" : version.text();
    }

    private static String orDash(String value) {
        return value == null ? "-" : value;
    }

    /** {@code 10/Oct/2000:13:55:36 +0000}, by hand: a locale-aware formatter loads locale data on first use. */
    private static void timestamp(StringBuilder line, long epochMillis) {
        LocalDateTime time = LocalDateTime.ofEpochSecond(Math.floorDiv(epochMillis, 1000), 0, ZoneOffset.UTC);
        two(line, time.getDayOfMonth()).append('/').append(MONTHS[time.getMonthValue() - 1]).append('/')
                .append(time.getYear()).append(':');
        two(line, time.getHour()).append(':');
        two(line, time.getMinute()).append(':');
        two(line, time.getSecond()).append(" +0000");
    }

    private static StringBuilder two(StringBuilder line, int value) {
        return line.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }

    /** Apache's escaping: {@code "}, {@code \}, control characters and anything not ASCII as {@code \xHH}. */
    static void escape(StringBuilder line, String text) {
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c == '"' || c == '\\') {
                line.append('\\').append((char) c);
            } else if (c < 0x20 || c >= 0x7f) {
                line.append("\\x").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xf, 16));
            } else {
                line.append((char) c);
            }
        }
    }

    /** The response with its body bytes counted; files and whole bodies still go to the wrapped response's own. */
    private static final class Counting extends ForwardingResponse {
        long bytes;
        private final OutputStream body;

        Counting(Response delegate) {
            super(delegate);
            OutputStream target = delegate.body();
            this.body = new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    target.write(b);
                    bytes++;
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    target.write(b, off, len);
                    bytes += len;
                }

                @Override
                public void flush() throws IOException {
                    target.flush();
                }

                @Override
                public void close() throws IOException {
                    target.close();
                }
            };
        }

        @Override
        public OutputStream body() {
            return body;
        }

        @Override
        public void send(byte[] whole) throws IOException {
            delegate().send(whole);
            bytes += whole.length;
        }

        @Override
        public void writeFile(FileChannel file, long position, long count) throws IOException {
            delegate().writeFile(file, position, count);
            bytes += count;
        }
    }

    /** Hand-written builder; every option has a default. */
    public static final class Builder {
        private boolean combined;
        private Consumer<String> sink = line -> System.getLogger(LOGGER).log(Level.INFO, line);
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        /**
         * Default false: the Common Log Format; true adds the Referer and User-Agent (Combined).
         *
         * @param combined whether lines use the Combined Log Format
         * @return this builder
         */
        public Builder combined(boolean combined) {
            this.combined = combined;
            return this;
        }

        /**
         * Default: {@code System.Logger} {@value AccessLog#LOGGER} at INFO. Called on the request's thread.
         *
         * @param sink receives each line
         * @return this builder
         */
        public Builder sink(Consumer<String> sink) {
            this.sink = Objects.requireNonNull(sink, "sink");
            return this;
        }

        /**
         * Default the system clock (UTC): the time stamp of each line.
         *
         * @param clock the clock of the time stamps
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** {@return the access-log middleware} */
        public Middleware build() {
            return new AccessLog(this)::wrap;
        }
    }
}
