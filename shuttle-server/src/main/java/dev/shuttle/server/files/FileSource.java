package dev.shuttle.server.files;

import java.io.IOException;
import java.util.List;

/** Where a file server's files come from: a directory, or the class path. */
interface FileSource {
    /**
     * The entry at {@code segments} (decoded, already checked to hold no separator, NUL, {@code .} or {@code ..}),
     * or null when there is none the server may serve.
     */
    FileEntry find(List<String> segments) throws IOException;
}
