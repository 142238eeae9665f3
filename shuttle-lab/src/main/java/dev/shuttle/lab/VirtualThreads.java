package dev.shuttle.lab;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Runs lab work on a virtual thread, where blocked socket calls can be interrupted by the call watchdog. */
public final class VirtualThreads {
    private VirtualThreads() {
    }

    /** Runs {@code work} on a new virtual thread and waits for it, rethrowing what it threw. */
    public static <T> T call(Callable<T> work) throws Exception {
        if (Thread.currentThread().isVirtual()) {
            return work.call();
        }
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<T> result = executor.submit(work);
            try {
                return result.get();
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof Exception exception) {
                    throw exception;
                }
                if (cause instanceof Error error) {
                    throw error;
                }
                throw e;
            } catch (InterruptedException e) {
                result.cancel(true);
                throw e;
            }
        }
    }
}
