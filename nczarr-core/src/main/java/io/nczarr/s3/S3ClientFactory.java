package io.nczarr.s3;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * Builds the SDK client for a {@link S3ClientSpec}: the synchronous Apache 5 HTTP client (no
 * clash with cdm's httpclient 4.2), explicit region and credentials (so the SDK never probes
 * instance metadata or reads profile files on its own), the standard retry strategy (5xx,
 * throttling, connection resets; exponential backoff with jitter, bounded attempts).
 */
public final class S3ClientFactory {
    private S3ClientFactory() {}

    static final Duration MAX_BACKOFF = Duration.ofSeconds(20);

    public static S3Client create(S3ClientSpec spec) {
        Duration base = Duration.ofMillis(Math.max(1, spec.retryBaseDelayMillis()));
        S3ClientBuilder b = S3Client.builder()
                .httpClientBuilder(Apache5HttpClient.builder()
                        .maxConnections(spec.maxConnections())
                        .connectionTimeout(Duration.ofSeconds(10))
                        .socketTimeout(Duration.ofSeconds(60)))
                .region(Region.of(spec.region()))
                .credentialsProvider(spec.credentials().provider())
                .forcePathStyle(spec.pathStyle())
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .overrideConfiguration(o -> o
                        // settings come from S3Settings only, not from whatever ~/.aws/config holds
                        .defaultProfileFile(emptyProfileFile())
                        .defaultProfileName(S3Settings.DEFAULT_PROFILE)
                        .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                                .maxAttempts(spec.maxAttempts())
                                .backoffStrategy(BackoffStrategy.exponentialDelay(base, MAX_BACKOFF))
                                .throttlingBackoffStrategy(
                                        BackoffStrategy.exponentialDelay(base.multipliedBy(5), MAX_BACKOFF))
                                // a long parallel read must not stop retrying after a burst of errors
                                .circuitBreakerEnabled(false)
                                .build()));
        if (spec.endpoint() != null) {
            b.endpointOverride(spec.endpoint());
        } else {
            // AWS: a bucket in another region than the one chosen answers with a redirect; follow it
            b.crossRegionAccessEnabled(true);
        }
        return b.build();
    }

    private static ProfileFile emptyProfileFile() {
        return ProfileFile.builder()
                .content(new ByteArrayInputStream(new byte[0]))
                .type(ProfileFile.Type.CONFIGURATION)
                .build();
    }
}
