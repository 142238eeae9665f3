package dev.shuttle.lab.process;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Reads a JVM's footprint from outside, the way an operator would: {@code /proc/PID/status} for VmRSS and the OS
 * threads, {@code /proc/PID/stat} for CPU time, and {@code jcmd} (the lab's own JDK) for the live heap after a full
 * GC ({@code GC.class_histogram} forces one) and for virtual threads (a JSON thread dump lists them; /proc sees only
 * their carriers). This is the side channel the lab controls: the servers run no code for it.
 */
public final class ProcessProbe {
    /** Threads in a JSON thread dump: {@code virtual} ones and the rest. */
    public record ThreadCounts(int platform, int virtual) {
    }

    private static final long CLOCK_TICKS = clockTicks();

    private ProcessProbe() {
    }

    public static long rssBytes(long pid) throws IOException {
        return statusField(pid, "VmRSS:") * 1024;
    }

    public static int osThreads(long pid) throws IOException {
        return (int) statusField(pid, "Threads:");
    }

    /** User plus system CPU time of the process so far, in nanoseconds. */
    public static long cpuNanos(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
        // the command name (field 2) may hold spaces: count fields after its closing parenthesis
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime (fields 14, 15)
        return ticks * TimeUnit.SECONDS.toNanos(1) / CLOCK_TICKS;
    }

    /** Bytes of live objects after the full GC that {@code jcmd PID GC.class_histogram} forces. */
    public static long liveHeapBytes(long pid) throws IOException, InterruptedException {
        String out = jcmd(pid, "GC.class_histogram");
        for (String line : out.split("\n")) {
            String trimmed = line.trim();
            if (trimmed.startsWith("Total")) {
                String[] parts = trimmed.split("\\s+");
                return Long.parseLong(parts[2]);
            }
        }
        throw new IOException("no Total line in the class histogram of " + pid + ": " + tail(out));
    }

    /** Counts the threads of a {@code jcmd PID Thread.dump_to_file -format=json} dump (JDK 21+). */
    public static ThreadCounts threads(long pid) throws IOException, InterruptedException {
        Path file = Files.createTempFile("shuttle-lab-threads-", ".json");
        Files.delete(file); // jcmd refuses to overwrite
        try {
            jcmd(pid, "Thread.dump_to_file", "-format=json", file.toString());
            return countThreads(file);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Streams the dump: every thread object has a {@code tid}; virtual ones also {@code "virtual": true}. */
    static ThreadCounts countThreads(Path dump) throws IOException {
        int all = 0;
        int virtual = 0;
        try (JsonParser parser = new JsonFactory().createParser(dump.toFile())) {
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                if (token == JsonToken.FIELD_NAME) {
                    String field = parser.currentName();
                    JsonToken value = parser.nextToken();
                    if (field.equals("tid")) {
                        all++;
                    } else if (field.equals("virtual") && value == JsonToken.VALUE_TRUE) {
                        virtual++;
                    }
                }
            }
        }
        return new ThreadCounts(all - virtual, virtual);
    }

    static String jcmd(long pid, String... command) throws IOException, InterruptedException {
        List<String> args = new java.util.ArrayList<>();
        args.add(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString());
        args.add(Long.toString(pid));
        args.addAll(List.of(command));
        Process process = new ProcessBuilder(args).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("jcmd " + String.join(" ", command) + " timed out");
        }
        String text = new String(output, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException("jcmd " + String.join(" ", command) + " failed: " + tail(text));
        }
        return text;
    }

    private static long statusField(long pid, String name) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith(name)) {
                return Long.parseLong(line.substring(name.length()).trim().split("\\s+")[0]);
            }
        }
        throw new IOException("no " + name + " in /proc/" + pid + "/status");
    }

    /** USER_HZ: 100 on every Linux the lab meets; asked of getconf once in case it is not. */
    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            return p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0 ? Long.parseLong(out) : 100;
        } catch (IOException | NumberFormatException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }

    private static String tail(String text) {
        return text.length() <= 300 ? text.strip() : "..." + text.substring(text.length() - 300).strip();
    }
}
