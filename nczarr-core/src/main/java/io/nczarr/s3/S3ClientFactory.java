package io.nczarr.s3;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * Builds the SDK client for a {@link S3ClientSpec}: the synchronous Apache 5 HTTP client (no
 * clash with cdm's httpclient 4.2), explicit region and credentials (so the SDK never probes
 * instance metadata or reads profile files on its own), the spec's time-outs (per attempt, per
 * call, and per socket read), and no retries of its own: {@link S3Bucket} retries, because only
 * it sees a body that breaks off after the call returned, and one loop keeps one attempt budget.
 */
public final class S3ClientFactory {
    private S3ClientFactory() {}

    /** Connecting takes a round trip or two; waiting longer only delays the retry. */
    static final Duration MAX_CONNECT_TIMEOUT = Duration.ofSeconds(10);

    public static S3Client create(S3ClientSpec spec) {
        Duration attempt = Duration.ofMillis(spec.attemptTimeoutMillis());
        Duration call = Duration.ofMillis(spec.requestTimeoutMillis());
        S3ClientBuilder b = S3Client.builder()
                .httpClientBuilder(httpClient(spec))
                .region(Region.of(spec.region()))
                .credentialsProvider(spec.credentials().provider())
                .forcePathStyle(spec.pathStyle())
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .overrideConfiguration(o -> o
                        // settings come from S3Settings only, not from whatever ~/.aws/config holds
                        .defaultProfileFile(emptyProfileFile())
                        .defaultProfileName(S3Settings.DEFAULT_PROFILE)
                        // S3Bucket narrows both per request to what is left of its deadline
                        .apiCallAttemptTimeout(attempt)
                        .apiCallTimeout(call)
                        .retryStrategy(AwsRetryStrategy.doNotRetry()));
        if (spec.endpoint() != null) {
            b.endpointOverride(spec.endpoint());
        } else {
            // AWS: a bucket in another region than the one chosen answers with a redirect; follow it
            b.crossRegionAccessEnabled(true);
        }
        return b.build();
    }

    /** The HTTP client of a spec: its connections, and no single read blocking longer than an attempt may last. */
    static Apache5HttpClient.Builder httpClient(S3ClientSpec spec) {
        Duration attempt = Duration.ofMillis(spec.attemptTimeoutMillis());
        return Apache5HttpClient.builder()
                .maxConnections(spec.maxConnections())
                .connectionTimeout(min(attempt, MAX_CONNECT_TIMEOUT))
                .socketTimeout(attempt);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static ProfileFile emptyProfileFile() {
        return ProfileFile.builder()
                .content(new ByteArrayInputStream(new byte[0]))
                .type(ProfileFile.Type.CONFIGURATION)
                .build();
    }
}
