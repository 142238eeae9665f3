package dev.shuttle.wire.hpack;

import java.util.Set;

/** How the encoder represents a field that is not already in a table (RFC 7541 section 6.2). */
@FunctionalInterface
interface IndexingPolicy {
    enum Indexing {
        /** Literal with incremental indexing: added to the dynamic table. */
        INCREMENTAL,
        /** Literal without indexing: the table is left alone. */
        WITHOUT,
        /** Literal never indexed: not here, and not by any intermediary that re-encodes it. */
        NEVER
    }

    Indexing indexing(String name, String value);

    /** Cookies shorter than this are never indexed (RFC 7541 section 7.1.3). */
    int SHORT_COOKIE = 20;

    /**
     * Shuttle's choice:
     * <ul>
     *   <li>never indexed: {@code authorization}, {@code proxy-authorization}, {@code set-cookie}, and a
     *       {@code cookie} shorter than 20 octets, whose few possible values make a compression side channel
     *       (CRIME-style guessing) practical. Jetty never indexes the first three as well;</li>
     *   <li>not indexed, because their values rarely repeat and would push useful entries out: {@code :path} (as
     *       OkHttp), validators and ranges ({@code etag}, {@code last-modified}, {@code if-*}, {@code range},
     *       {@code content-range}), {@code location} and {@code retry-after} (as Jetty);</li>
     *   <li>everything else is indexed.</li>
     * </ul>
     */
    IndexingPolicy DEFAULT = new IndexingPolicy() {
        private final Set<String> notIndexed = Set.of(":path", "etag", "last-modified", "if-modified-since",
                "if-unmodified-since", "if-none-match", "if-match", "if-range", "range", "content-range", "location",
                "retry-after");

        @Override
        public Indexing indexing(String name, String value) {
            return switch (name) {
                case "authorization", "proxy-authorization", "set-cookie" -> Indexing.NEVER;
                case "cookie" -> value.length() < SHORT_COOKIE ? Indexing.NEVER : Indexing.INCREMENTAL;
                default -> notIndexed.contains(name) ? Indexing.WITHOUT : Indexing.INCREMENTAL;
            };
        }
    };

    /** Indexes everything, as the examples of RFC 7541 Appendix C do. */
    IndexingPolicy ALWAYS = (name, value) -> Indexing.INCREMENTAL;
}
