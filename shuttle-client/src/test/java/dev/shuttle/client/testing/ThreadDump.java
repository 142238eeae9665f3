package dev.shuttle.client.testing;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names of this JVM's live threads, virtual ones included, from a JSON thread dump (the one
 * {@code jcmd <pid> Thread.dump_to_file -format=json} writes): {@code Thread.getAllStackTraces()} sees platform
 * threads only.
 */
public final class ThreadDump {
    private static final Pattern NAME = Pattern.compile("\"name\"\\s*:\\s*\"([^\"]*)\"");

    private ThreadDump() {
    }

    /** Live thread names that start with {@code prefix}. */
    public static List<String> named(String prefix) {
        try {
            Path file = Files.createTempFile("threads", ".json");
            Files.delete(file); // dumpThreads refuses to overwrite
            try {
                ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                        .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
                Matcher matcher = NAME.matcher(Files.readString(file));
                List<String> names = new ArrayList<>();
                while (matcher.find()) {
                    if (matcher.group(1).startsWith(prefix)) {
                        names.add(matcher.group(1));
                    }
                }
                return names;
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
