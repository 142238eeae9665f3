package dev.shuttle.interop;

/**
 * What a client said about its run.
 *
 * @param requests     requests it made (a failed one included)
 * @param failures     those that did not end in a 200 (an error, a refused stream, a GOAWAY the client could not
 *                     retry)
 * @param firstFailure the first failure's description, or null
 */
record ClientRun(int requests, int failures, String firstFailure) {
}
