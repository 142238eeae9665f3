package dev.shuttle.lab.reference;

/**
 * One figure published in a seed: not a measurement of ours, shown beside ours for reference.
 *
 * @param caseId   the lab case (a {@code ReuseCase} id, or a pool experiment id) the figure belongs to
 * @param release  the Go release family it was measured on
 * @param value    the figure as published: new connections per 100 requests unless it says "of N"
 * @param version  the exact Go version and conditions, e.g. "Go 1.27.0, 20 ms dial delay"
 * @param seed     the seed file it comes from
 * @param sentence the seed's sentence that states it
 */
public record PublishedFigure(String caseId, GoRelease release, String value, String version, String seed,
                              String sentence) {
}
