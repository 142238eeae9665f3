package dev.shuttle.lab.report;

import java.lang.management.ManagementFactory;
import java.time.Instant;

/**
 * Where a run happened: JVM, OS and machine, for the reports, since every figure depends on them.
 *
 * @param availableProcessors as the JVM sees them
 * @param maxHeapBytes        the JVM's heap limit
 * @param totalMemoryBytes    physical memory, or -1 when the platform does not tell
 */
public record RunEnvironment(String javaVersion, String javaVm, String javaVendor, String os, String osArch,
                             int availableProcessors, long maxHeapBytes, long totalMemoryBytes, String cpuModel,
                             Instant startedAt) {

    public static RunEnvironment capture() {
        long totalMemory = -1;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            totalMemory = os.getTotalMemorySize();
        }
        return new RunEnvironment(
                System.getProperty("java.version"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"),
                System.getProperty("java.vendor"),
                System.getProperty("os.name") + " " + System.getProperty("os.version"),
                System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory(),
                totalMemory,
                readCpuModel(),
                Instant.now());
    }

    /** The CPU model from /proc/cpuinfo on Linux; "unknown" elsewhere. */
    private static String readCpuModel() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // not Linux, or not readable: the model is only informative
        }
        return "unknown";
    }

    /** One line for the terminal. */
    public String summaryLine() {
        return "Java " + javaVersion + " (" + javaVm + "), " + os + " " + osArch + ", " + availableProcessors
                + " CPUs (" + cpuModel + ")" + (totalMemoryBytes > 0 ? ", " + (totalMemoryBytes >> 20) + " MiB RAM"
                : "");
    }
}
