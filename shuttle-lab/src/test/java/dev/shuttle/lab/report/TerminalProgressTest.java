package dev.shuttle.lab.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TerminalProgressTest {

    private static String waitForOutput(ByteArrayOutputStream bytes, String expected) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        String text = bytes.toString(StandardCharsets.UTF_8);
        while (!text.contains(expected) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            text = bytes.toString(StandardCharsets.UTF_8);
        }
        return text;
    }

    @Test
    void drawsABarWithThePhaseOnItsOwnWithoutBeingAdvanced() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TerminalProgress progress = new TerminalProgress(new PrintStream(bytes, true, StandardCharsets.UTF_8), true);
        progress.begin("lab reuse", 200);
        progress.phase("jdk × cl-1k, round 1/3");
        progress.advance(50);
        String drawn = waitForOutput(bytes, "25%");
        assertThat(drawn).contains("\r\033[K[#######.....................]  25%  jdk × cl-1k, round 1/3");
        progress.finish();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).containsPattern("\\r\u001b\\[Klab reuse: done in \\d+:\\d\\d\\R$");
    }

    @Test
    void withoutATerminalPrintsPlainLines() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TerminalProgress progress = new TerminalProgress(new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
        progress.begin("lab pool", 10);
        progress.phase("okhttp: burst 1/5");
        String drawn = waitForOutput(bytes, "okhttp");
        progress.finish();
        assertThat(drawn).doesNotContain("\r").contains("lab pool: 0%, okhttp: burst 1/5");
    }
}
