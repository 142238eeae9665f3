package dev.shuttle.interop;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** Runs a {@link Workload} with a Java client: sequential on the test's thread, concurrent on virtual threads. */
final class JvmDriver {
    /** One GET whose body is closed unread; returns the status. */
    @FunctionalInterface
    interface Call {
        int get(URI uri) throws Exception;
    }

    private JvmDriver() {
    }

    static ClientRun run(Workload workload, URI uri, Call call) throws InterruptedException {
        AtomicInteger requests = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        Runnable one = () -> {
            requests.incrementAndGet();
            String failure;
            try {
                int status = call.get(uri);
                failure = status == 200 ? null : "status " + status;
            } catch (Exception e) {
                failure = e.toString();
            }
            if (failure != null) {
                failures.incrementAndGet();
                firstFailure.compareAndSet(null, failure);
            }
        };
        if (!workload.concurrent()) {
            for (int i = 0; i < workload.perWorker(); i++) {
                one.run();
            }
        } else {
            one.run();
            try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<?>> workers = new ArrayList<>();
                for (int w = 0; w < workload.workers(); w++) {
                    workers.add(threads.submit(() -> {
                        for (int i = 0; i < workload.perWorker(); i++) {
                            one.run();
                        }
                    }));
                }
                for (Future<?> worker : workers) {
                    try {
                        worker.get();
                    } catch (ExecutionException e) {
                        throw new IllegalStateException("a worker failed outside a call", e.getCause());
                    }
                }
            }
        }
        return new ClientRun(requests.get(), failures.get(), firstFailure.get());
    }
}
