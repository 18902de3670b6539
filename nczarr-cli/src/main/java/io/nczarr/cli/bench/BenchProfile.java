package io.nczarr.cli.bench;

import io.nczarr.s3.AwsEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The benchmarks' AWS profile {@code bench} for the loopback S3 server's key. */
final class BenchProfile {
    private BenchProfile() {}

    /**
     * Writes a temporary config/credentials pair with profile {@code bench} (region us-east-1, the
     * given key) and points {@link AwsEnvironment}'s file properties at it; returns its folder.
     */
    static Path install(String keyId, String secret) throws IOException {
        Path aws = Files.createTempDirectory("nczarr-bench-aws");
        Files.writeString(
                aws.resolve("credentials"),
                "[bench]\naws_access_key_id = " + keyId + "\naws_secret_access_key = " + secret + "\n");
        Files.writeString(aws.resolve("config"), "[profile bench]\nregion = us-east-1\n");
        System.setProperty(
                AwsEnvironment.CREDENTIALS_FILE_PROPERTY,
                aws.resolve("credentials").toString());
        System.setProperty(
                AwsEnvironment.CONFIG_FILE_PROPERTY, aws.resolve("config").toString());
        return aws;
    }

    /** Deletes the folder {@link #install} wrote. */
    static void remove(Path aws) throws IOException {
        Files.deleteIfExists(aws.resolve("credentials"));
        Files.deleteIfExists(aws.resolve("config"));
        Files.deleteIfExists(aws);
    }
}
