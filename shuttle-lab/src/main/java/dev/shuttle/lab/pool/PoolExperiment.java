package dev.shuttle.lab.pool;

import dev.shuttle.lab.VirtualThreads;
import dev.shuttle.lab.clients.BodyUse;
import dev.shuttle.lab.clients.CallWatchdog;
import dev.shuttle.lab.clients.CallResult;
import dev.shuttle.lab.clients.LabClient;
import dev.shuttle.lab.fixture.FixtureServer;
import dev.shuttle.lab.fixture.LabTarget;
import dev.shuttle.lab.report.ProgressSink;
import dev.shuttle.lab.report.RunEnvironment;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Seed 003's pool experiments.
 *
 * <p>Bursts: one client makes {@code bursts} bursts of {@code concurrency} calls started together on virtual
 * threads; the fixture holds each response a little so the calls overlap; bodies are read to their end so only the
 * pool's idle limit decides how many connections survive a burst. New connections are counted per burst.
 *
 * <p>Per-call client: {@code perCallCalls} sequential calls, each through a client of its own that is never closed
 * (the "new client per call" mistake), body closed unread; then the connections still open at the server are
 * counted. The clients are closed afterwards only to keep the lab clean.
 */
public final class PoolExperiment {
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(5);

    private final PoolSettings settings;
    private final ProgressSink progress;
    private final CallWatchdog watchdog = new CallWatchdog(CallWatchdog.DEFAULT_LIMIT);

    public PoolExperiment(PoolSettings settings, ProgressSink progress) {
        this.settings = settings;
        this.progress = progress;
    }

    public PoolResult run() throws IOException, InterruptedException {
        long start = System.nanoTime();
        RunEnvironment environment = RunEnvironment.capture();
        List<PoolResult.Row> rows = new ArrayList<>();
        progress.begin("lab pool", settings.totalCalls());
        try (LabTarget target = LabTarget.start(settings.dialDelay())) {
            for (PoolSubject subject : PoolSubject.forClients(settings.clients())) {
                rows.add(measureOnVirtualThread(target, subject));
            }
        } finally {
            progress.finish();
            watchdog.close();
        }
        return new PoolResult(settings, environment, rows, System.nanoTime() - start);
    }

    private PoolResult.Row measureOnVirtualThread(LabTarget target, PoolSubject subject)
            throws InterruptedException {
        try {
            return VirtualThreads.call(() -> measure(target, subject));
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("pool experiment for " + subject.name() + " failed", e);
        }
    }

    private PoolResult.Row measure(LabTarget target, PoolSubject subject) throws InterruptedException {
        FixtureServer fixture = target.fixture();
        AtomicReference<String> firstError = new AtomicReference<>();
        List<Long> perBurst = new ArrayList<>();
        AtomicInteger burstErrors = new AtomicInteger();
        URI burstUri = target.uri("/bytes?n=1024&delay=" + settings.holdMillis());
        try (LabClient client = subject.create()) {
            for (int burst = 1; burst <= settings.bursts(); burst++) {
                progress.phase(subject.name() + ": burst " + burst + "/" + settings.bursts());
                long before = fixture.connectionsAccepted();
                burst(client, burstUri, burstErrors, firstError);
                perBurst.add(fixture.connectionsAccepted() - before);
                Thread.sleep(settings.pauseBetween());
            }
        }
        target.awaitQuiet(SETTLE_TIMEOUT);

        progress.phase(subject.name() + ": a new client per call");
        URI perCallUri = target.uri("/bytes?n=2048");
        long before = fixture.connectionsAccepted();
        int perCallErrors = 0;
        List<LabClient> abandoned = new ArrayList<>();
        try {
            for (int i = 0; i < settings.perCallCalls(); i++) {
                LabClient client = subject.create();
                abandoned.add(client);
                try {
                    CallResult result = watchdog.call(client, perCallUri, BodyUse.CLOSE_UNREAD);
                    if (result.status() != 200) {
                        perCallErrors++;
                        firstError.compareAndSet(null, "status " + result.status());
                    }
                } catch (IOException | RuntimeException e) {
                    perCallErrors++;
                    firstError.compareAndSet(null, e.toString());
                }
                progress.advance(1);
            }
            Thread.sleep(settings.settle());
            long open = fixture.openConnections();
            long opened = fixture.connectionsAccepted() - before;
            return new PoolResult.Row(subject, perBurst, burstErrors.get(), open, opened, perCallErrors,
                    firstError.get());
        } finally {
            for (LabClient client : abandoned) {
                client.close();
            }
            target.awaitQuiet(SETTLE_TIMEOUT);
        }
    }

    /** Starts every call of a burst at once and waits for all of them. */
    private void burst(LabClient client, URI uri, AtomicInteger errors, AtomicReference<String> firstError)
            throws InterruptedException {
        CountDownLatch gate = new CountDownLatch(1);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < settings.concurrency(); i++) {
                threads.submit(() -> {
                    gate.await();
                    try {
                        CallResult result = watchdog.call(client, uri, BodyUse.READ_TO_EOF);
                        if (result.status() != 200) {
                            errors.incrementAndGet();
                            firstError.compareAndSet(null, "status " + result.status());
                        }
                    } catch (IOException | RuntimeException e) {
                        errors.incrementAndGet();
                        firstError.compareAndSet(null, e.toString());
                    } finally {
                        progress.advance(1);
                    }
                    return null;
                });
            }
            gate.countDown();
        } // close() waits for every call
    }
}
