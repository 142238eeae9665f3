package dev.shuttle.client.intercept;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.Interceptor;
import dev.shuttle.client.Request;

/**
 * The chain the call's interceptors see, as the client's own interceptors (redirects, authentication, cookies,
 * decompression) see it: it also gives the call's trace.
 */
public interface CallChain extends Interceptor.Chain {
    ClientTrace trace();

    /** The request the call was made with, before any interceptor: its origin is the one the caller addressed. */
    Request callRequest();

    /** The trace of the call {@code chain} belongs to, or {@link ClientTrace#NONE} for a chain made elsewhere. */
    static ClientTrace traceOf(Interceptor.Chain chain) {
        return chain instanceof CallChain call ? call.trace() : ClientTrace.NONE;
    }
}
