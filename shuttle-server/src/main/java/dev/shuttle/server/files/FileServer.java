package dev.shuttle.server.files;

import dev.shuttle.server.Handler;
import dev.shuttle.server.Request;
import dev.shuttle.server.Response;
import dev.shuttle.server.core.HttpDate;
import dev.shuttle.server.files.ByteRanges.Decision;
import dev.shuttle.server.files.ByteRanges.Partial;
import dev.shuttle.server.files.ByteRanges.Range;
import dev.shuttle.server.files.ByteRanges.Unsatisfiable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Serves files from a directory or the class path, as a {@link Handler}: GET and HEAD, {@code Content-Type} by
 * extension, {@code ETag} and {@code Last-Modified} with conditional requests (304, 412), single and multiple
 * {@code Range}s (206, {@code multipart/byteranges}, 416), {@code index.html} for a directory, a listing only when
 * enabled. On plaintext HTTP/1.1 a file goes from disk to socket without a copy ({@link Response#writeFile}); over TLS
 * and HTTP/2 in chunks.
 *
 * <pre>{@code
 * Router router = new Router()
 *         .handle("GET /static/", StripPrefix.of("/static").wrap(FileServer.directory(Path.of("public")).build()));
 * }</pre>
 *
 * <p>It serves the request's path (mount it under a prefix with {@code StripPrefix}), decoded segment by segment. A
 * segment that decodes to {@code .} or {@code ..}, or holds a {@code /}, {@code \} or NUL, or an escape that is not
 * UTF-8, is refused with 400, whatever its encoding ({@code %2e%2e}, {@code ..%2f}, {@code %c0%ae}); a symbolic link
 * that leads out of the directory is answered 404. A directory requested without its trailing slash is redirected to
 * it, and {@code .../index.html} to {@code .../}, as Go's file server does. Thread-safe and immutable.
 */
public final class FileServer implements Handler {
    private final FileSource source;
    private final MediaTypes types;
    private final boolean listing;
    private final String indexFile;

    private FileServer(Builder builder, FileSource source) {
        this.source = source;
        this.types = new MediaTypes(builder.types);
        this.listing = builder.listing;
        this.indexFile = builder.indexFile;
    }

    /**
     * Files under {@code root}; it must be a directory when {@link Builder#build()} runs.
     *
     * @param root the directory served
     * @return a builder
     */
    public static Builder directory(Path root) {
        return new Builder(Objects.requireNonNull(root, "root"), null, null);
    }

    /**
     * Resources under {@code directory} of the class path of {@code loader} (a directory is required).
     *
     * @param directory the resource directory, such as {@code static}
     * @param loader the class loader whose class path is searched
     * @return a builder
     */
    public static Builder classpath(String directory, ClassLoader loader) {
        return new Builder(null, Objects.requireNonNull(directory, "directory"), Objects.requireNonNull(loader));
    }

    /**
     * Resources under {@code directory} of this library's class loader's class path.
     *
     * @param directory the resource directory, such as {@code static}
     * @return a builder
     */
    public static Builder classpath(String directory) {
        return classpath(directory, Thread.currentThread().getContextClassLoader() != null
                ? Thread.currentThread().getContextClassLoader() : FileServer.class.getClassLoader());
    }

    @Override
    public void handle(Request request, Response response) throws IOException {
        String method = request.method();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            response.header("Allow", "GET, HEAD");
            response.send(405, "405 method not allowed\n");
            return;
        }
        List<String> segments;
        try {
            segments = request.pathSegments();
        } catch (IllegalArgumentException e) {
            response.send(400, "400 bad request: invalid path: " + e.getMessage() + "\n");
            return;
        }
        if (segments.isEmpty()) {
            response.send(400, "400 bad request: not a path\n");
            return;
        }
        boolean trailingSlash = segments.getLast().isEmpty();
        List<String> names = new ArrayList<>(segments.size());
        for (String segment : segments) {
            if (segment.equals(".") || segment.equals("..") || segment.indexOf('/') >= 0
                    || segment.indexOf('\\') >= 0 || segment.indexOf('\0') >= 0) {
                response.send(400, "400 bad request: invalid path\n");
                return;
            }
            if (!segment.isEmpty()) {
                names.add(segment); // empty segments ("//") name nothing
            }
        }
        FileEntry entry = source.find(names);
        if (entry == null) {
            notFound(response);
            return;
        }
        if (entry.isDirectory()) {
            if (!trailingSlash && !names.isEmpty()) {
                redirect(request, response, DirectoryListing.encodeSegment(names.getLast()) + "/");
                return;
            }
            FileEntry index = null;
            if (indexFile != null) {
                List<String> withIndex = new ArrayList<>(names);
                withIndex.add(indexFile);
                index = source.find(withIndex);
            }
            if (index != null && !index.isDirectory()) {
                serveFile(request, response, index);
            } else if (listing) {
                response.header("Content-Type", "text/html; charset=utf-8");
                response.send(DirectoryListing.render(entry.list()));
            } else {
                notFound(response);
            }
            return;
        }
        if (trailingSlash) {
            // a file is not a directory: drop the slash
            redirect(request, response, "../" + DirectoryListing.encodeSegment(names.getLast()));
            return;
        }
        if (indexFile != null && names.getLast().equals(indexFile)) {
            redirect(request, response, "./"); // one URL per page
            return;
        }
        serveFile(request, response, entry);
    }

    private void serveFile(Request request, Response response, FileEntry file) throws IOException {
        long size = file.size();
        long modifiedMillis = file.lastModifiedMillis();
        long modified = modifiedMillis == Long.MIN_VALUE ? Long.MIN_VALUE : Math.floorDiv(modifiedMillis, 1000);
        String etag = file.etag();
        response.header("ETag", etag);
        if (modified != Long.MIN_VALUE) {
            response.header("Last-Modified", HttpDate.format(modified));
        }
        switch (Preconditions.evaluate(request, etag, modified)) {
            case NOT_MODIFIED -> {
                response.status(304);
                return;
            }
            case PRECONDITION_FAILED -> {
                response.send(412, "412 precondition failed\n");
                return;
            }
            case PROCEED -> {
            }
        }
        String type = types.of(file.name());
        response.header("X-Content-Type-Options", "nosniff");
        if (size < 0) { // a resource that does not know its length: whole, chunked
            response.header("Content-Type", type);
            copyWhole(request, response, file);
            return;
        }
        response.header("Accept-Ranges", "bytes");
        Decision decision = Preconditions.rangeApplies(request, etag, modified)
                ? ByteRanges.decide(request.header("Range"), size) : new ByteRanges.Whole();
        boolean head = request.method().equals("HEAD");
        switch (decision) {
            case Unsatisfiable unsatisfiable -> {
                response.header("Content-Range", "bytes */" + size);
                response.send(416, "416 range not satisfiable: " + unsatisfiable.reason() + "\n");
            }
            case Partial partial when partial.ranges().size() == 1 -> {
                Range range = partial.ranges().getFirst();
                response.status(206).header("Content-Type", type)
                        .header("Content-Range", range.contentRange(size)).contentLength(range.length());
                if (!head) {
                    send(response, file, List.of(range), null, null, size);
                }
            }
            case Partial partial -> {
                String boundary = boundary();
                List<byte[]> partHeads = new ArrayList<>();
                long length = 0;
                for (Range range : partial.ranges()) {
                    byte[] partHead = ((partHeads.isEmpty() ? "" : "\r\n") + "--" + boundary + "\r\nContent-Type: "
                            + type + "\r\nContent-Range: " + range.contentRange(size) + "\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII);
                    partHeads.add(partHead);
                    length += partHead.length + range.length();
                }
                byte[] end = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII);
                length += end.length;
                response.status(206).header("Content-Type", "multipart/byteranges; boundary=" + boundary)
                        .contentLength(length);
                if (!head) {
                    send(response, file, partial.ranges(), partHeads, end, size);
                }
            }
            case ByteRanges.Whole whole -> {
                response.header("Content-Type", type).contentLength(size);
                if (!head) {
                    send(response, file, List.of(new Range(0, size - 1)), null, null, size);
                }
            }
        }
    }

    /** Writes the ranges (each after its part head, when multipart), from the file's channel when it has one. */
    private static void send(Response response, FileEntry file, List<Range> ranges, List<byte[]> partHeads,
                             byte[] end, long size) throws IOException {
        if (size == 0) {
            return;
        }
        OutputStream body = response.body();
        FileChannel channel = file.openChannel();
        try {
            for (int i = 0; i < ranges.size(); i++) {
                Range range = ranges.get(i);
                if (partHeads != null) {
                    body.write(partHeads.get(i));
                }
                if (channel != null) {
                    response.writeFile(channel, range.first(), range.length());
                } else {
                    try (InputStream in = file.openStream()) {
                        in.skipNBytes(range.first());
                        copy(in, body, range.length());
                    }
                }
            }
            if (end != null) {
                body.write(end);
            }
        } finally {
            if (channel != null) {
                channel.close();
            }
        }
    }

    private static void copyWhole(Request request, Response response, FileEntry file) throws IOException {
        if (request.method().equals("HEAD")) {
            return;
        }
        try (InputStream in = file.openStream()) {
            in.transferTo(response.body());
        }
    }

    private static void copy(InputStream in, OutputStream out, long count) throws IOException {
        byte[] buffer = new byte[16 * 1024];
        long left = count;
        while (left > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                throw new IOException("the resource ended " + left + " bytes early");
            }
            out.write(buffer, 0, n);
            left -= n;
        }
    }

    /**
     * A relative redirect, so it works under whatever prefix the server was mounted; {@code relative} is encoded
     * already (a name's segment), and so is the query as it came.
     */
    private static void redirect(Request request, Response response, String relative) throws IOException {
        String query = request.query();
        response.header("Location", query == null ? relative : relative + "?" + query);
        response.send(301, "301 moved permanently\n");
    }

    private static void notFound(Response response) throws IOException {
        response.send(404, "404 page not found\n");
    }

    private static String boundary() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return Long.toHexString(random.nextLong() | Long.MIN_VALUE)
                + Long.toHexString(random.nextLong() | Long.MIN_VALUE);
    }

    /** Hand-written builder; every option has a default. */
    public static final class Builder {
        private final Path root;
        private final String classpathDirectory;
        private final ClassLoader loader;
        private boolean listing = false;
        private String indexFile = "index.html";
        private final Map<String, String> types = new HashMap<>();

        private Builder(Path root, String classpathDirectory, ClassLoader loader) {
            this.root = root;
            this.classpathDirectory = classpathDirectory;
            this.loader = loader;
        }

        /**
         * Default false: a directory without an index file is answered 404, as nginx without {@code autoindex}; a
         * listing shows what the directory holds, which is rarely meant to be public. Class-path directories are
         * never listed.
         *
         * @param listing whether directories without an index file are listed
         * @return this builder
         */
        public Builder listing(boolean listing) {
            this.listing = listing;
            return this;
        }

        /**
         * Default {@code index.html}, served for its directory; null for none.
         *
         * @param name the index file's name, or null
         * @return this builder
         */
        public Builder indexFile(String name) {
            if (name != null && (name.isEmpty() || name.contains("/"))) {
                throw new IllegalArgumentException("invalid index file name: " + name);
            }
            this.indexFile = name;
            return this;
        }

        /**
         * Adds or replaces the Content-Type of files with this extension (without the dot). The defaults cover the
         * web's common types; anything unknown is {@code application/octet-stream}.
         *
         * @param extension the file extension, without the dot
         * @param type the media type sent for it
         * @return this builder
         */
        public Builder contentType(String extension, String type) {
            types.put(Objects.requireNonNull(extension, "extension"), Objects.requireNonNull(type, "type"));
            return this;
        }

        /**
         * Builds the handler, checking the root now.
         *
         * @return the file server
         * @throws IOException when the directory does not exist or is not one
         */
        public FileServer build() throws IOException {
            FileSource source = root != null ? new DirectorySource(root)
                    : new ClasspathSource(classpathDirectory, loader);
            return new FileServer(this, source);
        }
    }
}
