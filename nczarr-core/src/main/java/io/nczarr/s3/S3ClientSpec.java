package io.nczarr.s3;

import java.net.URI;

/**
 * What makes two S3 clients interchangeable: equal specs share one client in
 * {@link S3ClientPool}. Retries are not part of it: the client makes one attempt per call and
 * {@link S3Bucket} retries. {@code toString} never shows a secret.
 *
 * @param endpoint an S3-compatible server, or {@code null} for AWS (endpoint from the region)
 * @param region the signing region
 * @param pathStyle bucket in the path rather than in the host name
 * @param credentials how to sign
 * @param maxConnections HTTP connections the client keeps
 * @param attemptTimeoutMillis the SDK's per-attempt timeout and the socket read timeout
 * @param requestTimeoutMillis the SDK's per-call timeout
 */
public record S3ClientSpec(
        URI endpoint,
        String region,
        boolean pathStyle,
        S3Credentials credentials,
        int maxConnections,
        long attemptTimeoutMillis,
        long requestTimeoutMillis) {

    @Override
    public String toString() {
        return "S3ClientSpec[" + (endpoint == null ? "AWS" : endpoint) + ", " + region
                + (pathStyle ? ", path style" : "") + ", " + credentials.describe() + "]";
    }
}
