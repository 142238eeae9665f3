package dev.shuttle.client.internal;

/** Status-code classes, the one place that says which codes a client treats as what. */
public final class Statuses {
    private Statuses() {
    }

    public static boolean isSuccessful(int status) {
        return status >= 200 && status < 300;
    }

    /** The codes that name another URI to follow: 301, 302, 303, 307, 308 (RFC 9110 15.4; not 300 or 304). */
    public static boolean isRedirect(int status) {
        return switch (status) {
            case 301, 302, 303, 307, 308 -> true;
            default -> false;
        };
    }
}
