package dev.shuttle.lab;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.shuttle.lab.report.JsonReport;
import dev.shuttle.lab.report.ProgressSink;
import dev.shuttle.lab.report.TerminalProgress;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The output options every experiment shares (a picocli mixin): the progress bar and the JSON file. */
final class ReportOptions {
    @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON.")
    Path json;

    @Option(names = "--no-progress", description = "Do not draw the progress bar on stderr.")
    boolean noProgress;

    ProgressSink progress() {
        return noProgress ? ProgressSink.NONE : TerminalProgress.onStderr();
    }

    /** Writes the report when --json was given, and says where. */
    void writeJson(ObjectNode report) throws IOException {
        if (json != null) {
            JsonReport.write(report, json);
            System.out.println("JSON written to " + json.toAbsolutePath());
        }
    }
}
