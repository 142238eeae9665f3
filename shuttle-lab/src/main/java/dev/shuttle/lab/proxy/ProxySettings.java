package dev.shuttle.lab.proxy;

import java.util.List;

/**
 * What {@code lab proxy} runs.
 *
 * @param subjects    the proxies, in order
 * @param sizes       response body sizes in bytes (the upstream's {@code /bytes?n=})
 * @param requests    aborted requests per cell
 * @param concurrency downstream clients at once (each request on a connection of its own)
 * @param rounds      every cell this many times; the report gives medians
 */
public record ProxySettings(List<ProxySubject> subjects, List<Integer> sizes, int requests, int concurrency,
                            int rounds) {
    public static final List<Integer> DEFAULT_SIZES = List.of(1024, 64 * 1024, 1024 * 1024);

    public ProxySettings {
        subjects = List.copyOf(subjects);
        sizes = List.copyOf(sizes);
        if (subjects.isEmpty() || sizes.isEmpty() || requests < 1 || concurrency < 1 || rounds < 1) {
            throw new IllegalArgumentException("invalid settings: " + subjects + " " + sizes + " requests=" + requests
                    + " concurrency=" + concurrency + " rounds=" + rounds);
        }
    }

    /**
     * How much of a body a downstream client reads before it aborts: half of it, at most 4 KiB, so the abort comes
     * mid-body for every size (for 1 KiB bodies often after the proxy wrote the whole body anyway).
     */
    static int abortAfter(int size) {
        return Math.max(1, Math.min(size / 2, 4096));
    }
}
