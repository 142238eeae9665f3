package dev.shuttle.lab.report;

import java.util.Locale;

/** Formats figures the same way in every report. */
public final class Units {
    private Units() {
    }

    /** 0 B, 812 B, 63.5 KiB, 12.3 MiB, 1.20 GiB. */
    public static String bytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        double value = bytes;
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, value >= 100 ? "%.0f %s" : value >= 10 ? "%.1f %s" : "%.2f %s", value,
                units[unit]);
    }

    /** Milliseconds with precision that suits the size: 0.084, 1.27, 12.3, 1234. */
    public static String millis(long nanos) {
        double ms = nanos / 1e6;
        if (ms >= 100) {
            return String.format(Locale.ROOT, "%.0f", ms);
        }
        if (ms >= 10) {
            return String.format(Locale.ROOT, "%.1f", ms);
        }
        if (ms >= 1) {
            return String.format(Locale.ROOT, "%.2f", ms);
        }
        return String.format(Locale.ROOT, "%.3f", ms);
    }

    /** A duration for humans: 850 ms, 12.4 s, 1 min 52 s. */
    public static String duration(long nanos) {
        double seconds = nanos / 1e9;
        if (seconds < 1) {
            return String.format(Locale.ROOT, "%.0f ms", nanos / 1e6);
        }
        if (seconds < 60) {
            return String.format(Locale.ROOT, "%.1f s", seconds);
        }
        long whole = Math.round(seconds);
        return whole / 60 + " min " + whole % 60 + " s";
    }
}
