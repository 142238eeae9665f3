package dev.shuttle.lab;

import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads durations the way people write them on a command line: {@code 20ms}, {@code 1.5s}, {@code 0}, {@code 2m}. */
final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    static Duration parse(String value) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        try {
            if (text.endsWith("ms")) {
                return Duration.ofNanos(Math.round(Double.parseDouble(text.substring(0, text.length() - 2)) * 1e6));
            }
            if (text.endsWith("s")) {
                return Duration.ofNanos(Math.round(Double.parseDouble(text.substring(0, text.length() - 1)) * 1e9));
            }
            if (text.endsWith("m")) {
                return Duration.ofSeconds(Math.round(Double.parseDouble(text.substring(0, text.length() - 1)) * 60));
            }
            double number = Double.parseDouble(text);
            if (number == 0) {
                return Duration.ZERO;
            }
        } catch (NumberFormatException e) {
            // fall through to the message below
        }
        throw new TypeConversionException("'" + value + "' is not a duration: write e.g. 20ms, 1.5s or 0");
    }
}
