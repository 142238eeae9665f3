package dev.shuttle.lab.proxy;

import dev.shuttle.lab.fixture.FixtureServer;
import dev.shuttle.lab.report.ProgressSink;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code lab proxy}: the seeds' question asked of reverse proxies. Downstream clients abort mid-body (each on its own
 * connection); the upstream (the lab's fixture) counts the connections the proxy opens to it. A proxy that closes its
 * upstream connection when its client aborts opens one per abort; one that drains the rest and keeps the connection
 * (Shuttle's, within its drain policy) opens almost none. Per cell, a fresh proxy first serves
 * {@code concurrency} whole requests (its pool warms up and those dials are not counted), then the aborted ones.
 *
 * <p>Proxies: Shuttle's in this JVM; nginx and Go's {@code httputil.ReverseProxy} as child processes, skipped (and
 * said so) when not installed.
 */
public final class ProxyExperiment {
    private final ProxySettings settings;
    private final ProgressSink progress;

    public ProxyExperiment(ProxySettings settings, ProgressSink progress) {
        this.settings = settings;
        this.progress = progress;
    }

    public ProxyResult run() throws Exception {
        List<ProxySubject> runnable = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (ProxySubject subject : settings.subjects()) {
            String missing = missingTool(subject);
            if (missing == null) {
                runnable.add(subject);
            } else {
                skipped.add(subject.label() + ": " + missing);
            }
        }
        Map<String, List<ProxyResult.Round>> rounds = new LinkedHashMap<>();
        Map<String, String> versions = new LinkedHashMap<>();
        int total = settings.rounds() * runnable.size() * settings.sizes().size();
        progress.begin("lab proxy", total);
        try (FixtureServer upstream = FixtureServer.start(0)) {
            for (int round = 0; round < settings.rounds(); round++) {
                for (ProxySubject subject : runnable) {
                    for (int size : settings.sizes()) {
                        String key = subject.label() + "/" + size;
                        progress.phase(subject.label() + " x " + size + " B, round " + (round + 1) + "/"
                                + settings.rounds());
                        try (RunningProxy proxy = start(subject, upstream.port())) {
                            versions.put(key, proxy.version());
                            rounds.computeIfAbsent(key, k -> new ArrayList<>()).add(cell(upstream, proxy, size));
                        }
                        progress.advance(1);
                    }
                }
            }
        } finally {
            progress.finish();
        }
        List<ProxyResult.Cell> cells = new ArrayList<>();
        for (ProxySubject subject : runnable) {
            for (int size : settings.sizes()) {
                String key = subject.label() + "/" + size;
                cells.add(ProxyResult.summarize(subject, versions.get(key), size, settings.requests(),
                        rounds.get(key)));
            }
        }
        return new ProxyResult(settings, cells, skipped);
    }

    /** One cell: warm-up, then the aborted requests, with the upstream's new connections counted over the latter. */
    private ProxyResult.Round cell(FixtureServer upstream, RunningProxy proxy, int size) throws Exception {
        AbortingDownstream.Outcome warm = AbortingDownstream.run(proxy.port(), size, settings.concurrency(),
                settings.concurrency(), false);
        if (warm.failed() > 0) {
            throw new IOException(proxy.version() + " failed its warm-up: " + warm.firstFailure());
        }
        long before = upstream.connectionsAccepted();
        AbortingDownstream.Outcome outcome = AbortingDownstream.run(proxy.port(), size, settings.requests(),
                settings.concurrency(), true);
        long opened = upstream.connectionsAccepted() - before;
        return new ProxyResult.Round(opened, outcome.completed(), outcome.failed(), outcome.elapsedNanos(),
                outcome.p99Micros(), outcome.firstFailure());
    }

    private static RunningProxy start(ProxySubject subject, int upstreamPort) throws IOException {
        return switch (subject) {
            case SHUTTLE -> new ShuttleProxy(upstreamPort);
            case NGINX -> NginxProxy.start(NginxProxy.binary(), upstreamPort);
            case GO -> GoProxy.start(GoProxy.binary(), upstreamPort);
        };
    }

    /** Why a subject cannot run here (its tool is missing), or null. */
    static String missingTool(ProxySubject subject) {
        Path tool = switch (subject) {
            case SHUTTLE -> Path.of("/");
            case NGINX -> NginxProxy.binary();
            case GO -> GoProxy.binary();
        };
        if (tool != null) {
            return null;
        }
        return subject == ProxySubject.NGINX ? "nginx is not installed (Debian package nginx-light)"
                : "go is not installed (Debian package golang-go)";
    }
}
