package dev.shuttle.lab.report;

/**
 * Receives an experiment's progress. Called from the experiment's thread; implementations that draw do so on their
 * own schedule.
 */
public interface ProgressSink {
    ProgressSink NONE = new ProgressSink() {
    };

    /** The run will make {@code totalUnits} steps (requests). */
    default void begin(String title, long totalUnits) {
    }

    /** What is being measured now, e.g. "jdk × cl-64k, round 2/3". */
    default void phase(String description) {
    }

    /** {@code units} more steps are done. */
    default void advance(long units) {
    }

    /** The run is over (successfully or not). */
    default void finish() {
    }
}
