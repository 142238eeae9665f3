package dev.shuttle.lab.idle;

/**
 * One look at a server process.
 *
 * @param rssBytes       VmRSS
 * @param liveHeapBytes  live objects after a full GC
 * @param osThreads      threads the kernel sees (platform threads, virtual threads' carriers, GC, JIT)
 * @param virtualThreads virtual threads in a JSON thread dump
 */
public record IdleSample(long rssBytes, long liveHeapBytes, long osThreads, long virtualThreads) {
    /** Every thread the application could be waiting in: OS threads plus virtual threads. */
    public long threads() {
        return osThreads + virtualThreads;
    }
}
