package dev.shuttle.lab.reference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.lab.reuse.ReuseCase;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class PublishedFiguresTest {

    @Test
    void everyFigureBelongsToAKnownCase() {
        for (PublishedFigure f : PublishedFigures.reuse()) {
            assertThat(ReuseCase.byId(f.caseId())).isNotNull();
        }
    }

    @Test
    void casesWithoutAFigureShowADash() {
        assertThat(PublishedFigures.cell("chunked-64k", GoRelease.GO_1_27)).isEqualTo("-");
        assertThat(PublishedFigures.cell("throttle", GoRelease.GO_1_26)).isEqualTo("-");
    }

    @Test
    void theSeedsHeadlineFiguresAreThere() {
        assertThat(PublishedFigures.cell("cl-200k", GoRelease.GO_1_27)).isEqualTo("11");
        assertThat(PublishedFigures.cell("cl-256k-1", GoRelease.GO_1_27)).isEqualTo("26");
        assertThat(PublishedFigures.cell("pause-10ms", GoRelease.GO_1_27)).isEqualTo("40");
        assertThat(PublishedFigures.cell("json-chunked", GoRelease.GO_1_26)).isEqualTo("100");
        assertThat(PublishedFigures.cell("cl-2k", GoRelease.GO_1_27)).isEqualTo("1-4; 1-3");
    }

    @Test
    void seed001sIdleAndBusyFiguresAreThere() {
        assertThat(PublishedFigures.cell("idle-rss-per-connection", GoRelease.GO_1_28)).isEqualTo("22.5 KiB");
        assertThat(PublishedFigures.cell("idle-threads-at-10000", GoRelease.GO_1_27)).isEqualTo("20,004 goroutines");
        assertThat(PublishedFigures.cell("hot-rate", GoRelease.GO_1_28)).contains("39.6k");
        assertThat(PublishedFigures.idle()).allMatch(f -> f.seed().equals(PublishedFigures.SEED_001));
    }

    /**
     * Each sentence is quoted from its seed, when the seeds are at hand: they live in shared/, beside the repository
     * (tests run in the module directory), not in it.
     */
    @Test
    void sentencesAreQuotedFromTheirSeeds() throws Exception {
        Path seeds = java.util.stream.Stream.of(Path.of("../../shared"), Path.of("../shared"), Path.of("/work/shared"))
                .filter(p -> Files.isDirectory(p.resolve("seeds")))
                .findFirst().orElse(null);
        org.junit.jupiter.api.Assumptions.assumeTrue(seeds != null, "seeds not available on this machine");
        for (PublishedFigure f : concat()) {
            String seedText = Files.readString(seeds.resolve(f.seed())).replaceAll("\\s+", " ");
            String quoted = f.sentence().replaceAll(" \\(The read-to-EOF.*\\)$", "");
            assertThat(seedText).as(f.caseId() + " " + f.release()).contains(quoted);
        }
    }

    private static java.util.List<PublishedFigure> concat() {
        java.util.List<PublishedFigure> all = new java.util.ArrayList<>(PublishedFigures.reuse());
        all.addAll(PublishedFigures.pool());
        all.addAll(PublishedFigures.idle());
        all.addAll(PublishedFigures.busy());
        return all;
    }
}
