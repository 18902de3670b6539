package io.nczarr.s3;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.profiles.ProfileFile;

/**
 * How requests are signed. Equal values share a client (see {@link S3ClientPool}). No
 * {@code toString} shows a secret: only where the credentials came from.
 */
public sealed interface S3Credentials {

    /** The SDK provider for these credentials. */
    AwsCredentialsProvider provider();

    /** Where the credentials came from, safe to print. */
    String describe();

    /** Unsigned requests (profile {@code none}, like the AWS CLI's {@code --no-sign-request}). */
    record Anonymous() implements S3Credentials {
        @Override
        public AwsCredentialsProvider provider() {
            return AnonymousCredentialsProvider.create();
        }

        @Override
        public String describe() {
            return "no credentials (profile 'none': unsigned requests)";
        }
    }

    /**
     * An access key pair, with a session token for temporary credentials.
     *
     * @param source where they came from, e.g. {@code "profile 'x' in /home/u/.aws/credentials"}
     */
    record Keys(String accessKeyId, String secretAccessKey, String sessionToken, String source)
            implements S3Credentials {
        @Override
        public AwsCredentialsProvider provider() {
            return StaticCredentialsProvider.create(
                    sessionToken == null
                            ? AwsBasicCredentials.create(accessKeyId, secretAccessKey)
                            : AwsSessionCredentials.create(accessKeyId, secretAccessKey, sessionToken));
        }

        @Override
        public String describe() {
            return (sessionToken == null ? "access key" : "temporary access key with session token") + " from "
                    + source;
        }

        @Override
        public String toString() {
            return "Keys[" + describe() + "]";
        }
    }

    /**
     * A profile whose credentials the SDK obtains itself ({@code credential_process}, or
     * {@code role_arn}/SSO, which need the SDK's sts/sso modules on the classpath).
     */
    record SdkProfile(String profile, Path configFile, Path credentialsFile) implements S3Credentials {
        @Override
        public AwsCredentialsProvider provider() {
            List<ProfileFile> files = new ArrayList<>();
            if (configFile != null && configFile.toFile().isFile()) {
                files.add(ProfileFile.builder()
                        .content(configFile)
                        .type(ProfileFile.Type.CONFIGURATION)
                        .build());
            }
            if (credentialsFile != null && credentialsFile.toFile().isFile()) {
                files.add(ProfileFile.builder()
                        .content(credentialsFile)
                        .type(ProfileFile.Type.CREDENTIALS)
                        .build());
            }
            ProfileFile.Aggregator agg = ProfileFile.aggregator();
            files.forEach(agg::addFile);
            return ProfileCredentialsProvider.builder()
                    .profileFile(agg.build())
                    .profileName(profile)
                    .build();
        }

        @Override
        public String describe() {
            return "profile '" + profile + "' (credentials obtained by the AWS SDK)";
        }
    }
}
