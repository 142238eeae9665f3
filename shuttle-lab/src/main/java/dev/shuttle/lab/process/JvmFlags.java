package dev.shuttle.lab.process;

import java.util.List;

/**
 * The flags of the lab's child JVMs, the same for every server so that only the servers differ. They are printed
 * in every report.
 */
public final class JvmFlags {
    /**
     * Servers: SerialGC (one GC thread, no concurrent GC threads in the thread counts) and a fixed 1 GiB heap that
     * is touched at startup, so the heap's share of RSS is constant and RSS growth shows memory outside the heap
     * (thread stacks, direct buffers, metaspace, malloc); live heap after a full GC shows the heap's share.
     */
    public static final List<String> SERVER = List.of("-XX:+UseSerialGC", "-Xms1g", "-Xmx1g",
            "-XX:+AlwaysPreTouch");

    /** The lab's client (idle holder, load generator): enough heap for 10 000 connections. */
    public static final List<String> CLIENT = List.of("-XX:+UseSerialGC", "-Xmx1g");

    private JvmFlags() {
    }

    public static String describe(List<String> flags) {
        return String.join(" ", flags);
    }
}
