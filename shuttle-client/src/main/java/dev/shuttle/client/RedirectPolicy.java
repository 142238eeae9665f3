package dev.shuttle.client;

import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * Which redirects the client follows by itself ({@link HttpClient.Builder#redirectPolicy}). A followed redirect
 * never reaches the caller: its body is closed, which keeps the connection by the client's {@link DrainPolicy}, and
 * the next hop is sent; {@link ClientTrace#followUp} reports each hop. A redirect not followed is returned as it is
 * ({@link Response#isRedirect()}).
 *
 * <p>The rules, Go's and the Fetch standard's: 301, 302 and 303 turn a request other than GET or HEAD into a GET
 * without body (and without its {@code Content-*} fields); 307 and 308 send the same method and body again, when the
 * body is replayable (else the 307/308 is returned). {@code Authorization}, {@code Proxy-Authorization} and
 * {@code Cookie} set by the caller are dropped once the origin changes (a cookie handler adds the new origin's own).
 * A 3xx without {@code Location} is returned; one to a scheme other than http or https fails the call.
 */
public final class RedirectPolicy {
    private static final RedirectPolicy DEFAULTS = builder().build();
    private static final RedirectPolicy NONE = builder().maxRedirects(0).build();

    private final int maxRedirects;
    private final boolean httpsToHttp;
    private final Check check;

    private RedirectPolicy(Builder builder) {
        this.maxRedirects = builder.maxRedirects;
        this.httpsToHttp = builder.httpsToHttp;
        this.check = builder.check;
    }

    /**
     * Follows up to 10 redirects, never from https to http: Go's limit, the JDK's {@code NORMAL}.
     *
     * @return the default policy
     */
    public static RedirectPolicy defaults() {
        return DEFAULTS;
    }

    /**
     * Follows none: every 3xx is returned to the caller (the JDK client's default, curl without {@code -L}).
     *
     * @return the policy that follows no redirect
     */
    public static RedirectPolicy none() {
        return NONE;
    }

    /** {@return a builder starting from the defaults} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Redirects followed at most in one call; one more fails the call. 0: none is followed.
     *
     * @return the limit, 0 or more
     */
    public int maxRedirects() {
        return maxRedirects;
    }

    /** {@return whether a redirect from https to http is followed (else returned)} */
    public boolean httpsToHttp() {
        return httpsToHttp;
    }

    /** {@return the caller's own check, run for each redirect the rules would follow; null when none} */
    public Check check() {
        return check;
    }

    /**
     * A caller's say on each redirect, as Go's {@code CheckRedirect}: runs on the calling thread before the next hop
     * is sent.
     */
    @FunctionalInterface
    public interface Check {
        /**
         * Decides whether the client follows a redirect its rules would follow.
         *
         * @param next the request the redirect leads to
         * @param via  the requests sent so far in this call, oldest first
         * @return true to follow; false to return the redirect response to the caller
         * @throws IOException to fail the call (the redirect's body is closed first)
         */
        boolean follow(Request next, List<Request> via) throws IOException;
    }

    /** Hand-written builder; every option has its default stated. */
    public static final class Builder {
        private int maxRedirects = 10;
        private boolean httpsToHttp;
        private Check check;

        private Builder() {
        }

        /**
         * Default 10, as Go ("stopped after 10 redirects"); OkHttp allows 20 follow-ups, browsers about 20. A longer
         * chain is a loop or a misconfiguration more often than a site. 0 follows none.
         *
         * @param maxRedirects the most redirects one call follows
         * @return this builder
         */
        public Builder maxRedirects(int maxRedirects) {
            if (maxRedirects < 0) {
                throw new IllegalArgumentException("maxRedirects < 0: " + maxRedirects);
            }
            this.maxRedirects = maxRedirects;
            return this;
        }

        /**
         * Default false, as the JDK client's {@code NORMAL} and browsers' mixed-content rule: a response fetched
         * over TLS should not send the caller to plaintext behind its back. True follows them (Go, OkHttp).
         *
         * @param follow whether https-to-http redirects are followed
         * @return this builder
         */
        public Builder httpsToHttp(boolean follow) {
            this.httpsToHttp = follow;
            return this;
        }

        /**
         * A check run for each redirect about to be followed. Default none.
         *
         * @param check the check; null for none
         * @return this builder
         */
        public Builder check(Check check) {
            this.check = Objects.requireNonNull(check, "check");
            return this;
        }

        /** {@return the policy} */
        public RedirectPolicy build() {
            return new RedirectPolicy(this);
        }
    }
}
