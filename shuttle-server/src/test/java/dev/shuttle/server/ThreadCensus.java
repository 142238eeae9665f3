package dev.shuttle.server;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts this JVM's threads, virtual ones included, from a JSON thread dump (the same dump
 * {@code jcmd <pid> Thread.dump_to_file -format=json} writes); ThreadMXBean sees platform threads only.
 */
record ThreadCensus(int platform, int virtual, int shuttleConnectionThreads) {
    private static final Pattern THREAD = Pattern.compile("\"tid\"\\s*:");
    private static final Pattern VIRTUAL = Pattern.compile("\"virtual\"\\s*:\\s*true");
    private static final Pattern CONNECTION_THREAD = Pattern.compile("\"name\"\\s*:\\s*\"shuttle-conn-");

    static ThreadCensus take() throws IOException {
        Path file = Files.createTempFile("threads", ".json");
        Files.delete(file); // dumpThreads refuses to overwrite
        try {
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
            String json = Files.readString(file);
            int all = count(THREAD, json);
            int virtual = count(VIRTUAL, json);
            return new ThreadCensus(all - virtual, virtual, count(CONNECTION_THREAD, json));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static int count(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        int count = 0;
        while (matcher.find()) {
            count++;
        }
        return count;
    }
}
