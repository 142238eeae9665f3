package dev.shuttle.server.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.util.List;

/**
 * A file or directory a {@link FileSource} found: what the file server needs to answer for it. A file on disk opens as
 * a {@link FileChannel} (so plaintext responses can send it without a copy), a class-path resource as a stream.
 */
interface FileEntry {
    /** The last segment of its name (what decides its Content-Type). */
    String name();

    boolean isDirectory();

    long size();

    /** Milliseconds since the epoch, or {@link Long#MIN_VALUE} when unknown. */
    long lastModifiedMillis();

    /** A strong validator: changes whenever the content can have. */
    String etag();

    /** The file's channel, or null when the entry is not a file on disk (then {@link #openStream}). */
    FileChannel openChannel() throws IOException;

    InputStream openStream() throws IOException;

    /** A directory's entries, sorted by name; empty when they cannot be listed. */
    List<FileEntry> list() throws IOException;
}
