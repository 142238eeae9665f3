package dev.shuttle.server.files;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.jar.JarEntry;

/**
 * Resources under one directory of the class path ({@code static/} in a jar or a classes directory). The directory
 * is required: serving the class path's root would serve every class. A resource in a plain directory opens as a
 * file (so it can go without a copy); one in a jar as a stream. Directories are never listed. Immutable.
 */
final class ClasspathSource implements FileSource {
    private final String base;
    private final ClassLoader loader;

    ClasspathSource(String directory, ClassLoader loader) {
        String trimmed = directory.replaceAll("^/+|/+$", "");
        if (trimmed.isEmpty() || trimmed.contains("..")) {
            throw new IllegalArgumentException("a class-path directory is required, such as \"static\": "
                    + directory);
        }
        this.base = trimmed;
        this.loader = loader;
    }

    @Override
    public FileEntry find(List<String> segments) throws IOException {
        String name = segments.isEmpty() ? base : base + "/" + String.join("/", segments);
        URL url = loader.getResource(name);
        if (url == null) {
            URL directory = loader.getResource(name + "/");
            return directory == null ? null : new Resource(directory, last(segments), true, 0, Long.MIN_VALUE);
        }
        URLConnection connection = url.openConnection();
        connection.setUseCaches(false);
        if (connection instanceof JarURLConnection jar) {
            JarEntry entry = jar.getJarEntry();
            if (entry == null) {
                return null;
            }
            return new Resource(url, last(segments), entry.isDirectory(), entry.getSize(), entry.getTime());
        }
        if (url.getProtocol().equals("file")) {
            Path path;
            try {
                path = Path.of(url.toURI());
            } catch (URISyntaxException | IllegalArgumentException e) {
                return null;
            }
            return new Resource(url, last(segments), Files.isDirectory(path), Files.size(path),
                    Files.getLastModifiedTime(path).toMillis());
        }
        long modified = connection.getLastModified();
        return new Resource(url, last(segments), false, connection.getContentLengthLong(),
                modified == 0 ? Long.MIN_VALUE : modified);
    }

    private static String last(List<String> segments) {
        return segments.isEmpty() ? "" : segments.getLast();
    }

    private record Resource(URL url, String name, boolean isDirectory, long size, long lastModifiedMillis)
            implements FileEntry {
        @Override
        public String etag() {
            return "\"" + Long.toHexString(lastModifiedMillis) + "-" + Long.toHexString(size) + "\"";
        }

        @Override
        public FileChannel openChannel() throws IOException {
            if (!url.getProtocol().equals("file")) {
                return null;
            }
            try {
                return FileChannel.open(Path.of(url.toURI()), StandardOpenOption.READ);
            } catch (URISyntaxException e) {
                return null;
            }
        }

        @Override
        public InputStream openStream() throws IOException {
            URLConnection connection = url.openConnection();
            connection.setUseCaches(false); // a cached jar file would stay open after the response
            return connection.getInputStream();
        }

        @Override
        public List<FileEntry> list() {
            return List.of();
        }
    }
}
