package dev.shuttle.server.files;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Files under a directory. Each request's path is resolved segment by segment under the root, then to its real path
 * (every symbolic link followed); a real path outside the root's real path is refused as if it did not exist, so a
 * link inside the tree may point within it but never out of it. Immutable.
 */
final class DirectorySource implements FileSource {
    private static final System.Logger LOG = System.getLogger(DirectorySource.class.getName());

    private final Path root;

    DirectorySource(Path root) throws IOException {
        this.root = root.toRealPath();
        if (!Files.isDirectory(this.root)) {
            throw new NotDirectoryException(root.toString());
        }
    }

    @Override
    public FileEntry find(List<String> segments) throws IOException {
        Path path = root;
        try {
            for (String segment : segments) {
                path = path.resolve(segment);
            }
        } catch (InvalidPathException e) {
            return null;
        }
        Path real;
        try {
            real = path.toRealPath();
        } catch (NoSuchFileException | NotDirectoryException e) {
            return null;
        }
        if (!real.startsWith(root)) {
            LOG.log(Level.DEBUG, "refusing {0}: a link out of the served directory", path);
            return null;
        }
        BasicFileAttributes attributes = Files.readAttributes(real, BasicFileAttributes.class);
        if (!attributes.isRegularFile() && !attributes.isDirectory()) {
            return null; // devices, pipes, sockets
        }
        return new DiskEntry(real, segments.isEmpty() ? "" : segments.getLast(), attributes);
    }

    private record DiskEntry(Path path, String name, BasicFileAttributes attributes) implements FileEntry {
        @Override
        public boolean isDirectory() {
            return attributes.isDirectory();
        }

        @Override
        public long size() {
            return attributes.size();
        }

        @Override
        public long lastModifiedMillis() {
            return attributes.lastModifiedTime().toMillis();
        }

        /** Size and modification time in nanoseconds, as nginx's (which uses seconds). */
        @Override
        public String etag() {
            long nanos = attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS);
            return "\"" + Long.toHexString(nanos) + "-" + Long.toHexString(attributes.size()) + "\"";
        }

        @Override
        public FileChannel openChannel() throws IOException {
            return FileChannel.open(path, StandardOpenOption.READ);
        }

        @Override
        public InputStream openStream() throws IOException {
            return Files.newInputStream(path);
        }

        @Override
        public List<FileEntry> list() throws IOException {
            List<FileEntry> entries = new ArrayList<>();
            try (DirectoryStream<Path> children = Files.newDirectoryStream(path)) {
                for (Path child : children) {
                    try {
                        entries.add(new DiskEntry(child, child.getFileName().toString(),
                                Files.readAttributes(child, BasicFileAttributes.class)));
                    } catch (IOException e) {
                        // vanished, or a dangling link: not listed
                    }
                }
            }
            entries.sort(Comparator.comparing(FileEntry::name));
            return entries;
        }
    }
}
