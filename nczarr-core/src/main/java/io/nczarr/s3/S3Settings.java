package io.nczarr.s3;

import java.io.IOException;
import java.util.Map;

/**
 * Everything needed to talk to one S3 location, decided with netcdf-c's rules (NCZarr docs,
 * appendix E):
 * <ul>
 *   <li>profile: URL fragment key {@code aws.profile} (or {@code awsprofile}), else
 *       {@code AWS_PROFILE} ({@code -Dnczarr.aws.profile}), else {@code default};</li>
 *   <li>region: fragment key {@code aws.region}, else the profile's {@code aws_region} or
 *       {@code region}, else the region in an AWS host name, else {@code us-east-1};</li>
 *   <li>credentials: profile {@code none} means unsigned requests; a profile named in the URL
 *       or by {@code AWS_PROFILE} must exist and hold credentials; with no profile named, the
 *       environment's {@code AWS_ACCESS_KEY_ID}/{@code AWS_SECRET_ACCESS_KEY}
 *       (+{@code AWS_SESSION_TOKEN}) are used, else the {@code default} profile.</li>
 * </ul>
 * Nothing falls back silently: no credentials, a missing profile or half a key pair is an
 * error that says what was looked at (never a value); anonymous access is only ever chosen by
 * naming profile {@code none}.
 *
 * @param location the bucket and key
 * @param profile the active profile name ({@code none} for unsigned requests)
 * @param region the signing region
 * @param regionSource where the region came from (for messages)
 * @param credentials how to sign
 * @param tuning request concurrency, retries and deadlines
 */
public record S3Settings(
        S3Location location,
        String profile,
        String region,
        String regionSource,
        S3Credentials credentials,
        S3Tuning tuning) {

    public static final String NO_PROFILE = "none";
    public static final String DEFAULT_PROFILE = "default";
    public static final String DEFAULT_REGION = "us-east-1";

    /**
     * Resolves the settings for a location.
     *
     * @param fragment the URL's fragment keys, lower case ({@code aws.profile}, {@code awsprofile},
     *     {@code aws.region}, tuning keys of {@link S3Tuning})
     * @throws IOException when the profile files cannot be read, or credentials cannot be found
     */
    public static S3Settings resolve(S3Location location, Map<String, String> fragment, AwsEnvironment env)
            throws IOException {
        String explicit = nonEmpty(fragment.get("aws.profile"));
        if (explicit == null) {
            explicit = nonEmpty(fragment.get("awsprofile"));
        }
        if (explicit == null) {
            explicit = env.profile();
        }
        String profileName = explicit != null ? explicit : DEFAULT_PROFILE;
        // profile "none" needs no files (and is not hurt by broken ones)
        AwsProfiles profiles = profileName.equals(NO_PROFILE) ? AwsProfiles.load(null, null) : AwsProfiles.load(env);
        AwsProfiles.Profile profile = profiles.profile(profileName);

        String region = nonEmpty(fragment.get("aws.region"));
        String regionSource = "URL key aws.region";
        if (region == null && profile != null) {
            region = profile.get("aws_region");
            if (region == null) {
                region = profile.get("region");
            }
            regionSource = "profile '" + profileName + "'";
        }
        if (region == null && location.hostRegion() != null) {
            region = location.hostRegion();
            regionSource = "host name";
        }
        if (region == null) {
            region = DEFAULT_REGION;
            regionSource = "default";
        }

        S3Credentials credentials = credentials(location, profileName, explicit != null, profile, profiles, env);
        return new S3Settings(location, profileName, region, regionSource, credentials, S3Tuning.from(fragment, env));
    }

    private static S3Credentials credentials(
            S3Location location,
            String name,
            boolean named,
            AwsProfiles.Profile profile,
            AwsProfiles profiles,
            AwsEnvironment env)
            throws IOException {
        if (name.equals(NO_PROFILE)) {
            return new S3Credentials.Anonymous();
        }
        if (!named) {
            String id = env.accessKeyId();
            String secret = env.secretAccessKey();
            if (id != null || secret != null) {
                if (id == null || secret == null) {
                    throw new IOException(
                            location + ": AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together" + " (only "
                                    + (id == null ? "the secret key" : "the access key id") + " is set)");
                }
                return new S3Credentials.Keys(id, secret, env.sessionToken(), "the environment (AWS_ACCESS_KEY_ID)");
            }
        }
        if (profile == null) {
            String files = profiles.configFile() + " and " + profiles.credentialsFile();
            if (named) {
                throw new IOException(location + ": AWS profile '" + name + "' is not defined in " + files
                        + " (use aws.profile=none for unsigned requests to a public bucket)");
            }
            throw new IOException(location + ": no AWS credentials: no profile named (URL key aws.profile,"
                    + " AWS_PROFILE), no AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, and no [default] profile in "
                    + files + "; for a public bucket add #aws.profile=none to the URL");
        }
        String id = profile.get("aws_access_key_id");
        String secret = profile.get("aws_secret_access_key");
        if (id != null || secret != null) {
            if (id == null || secret == null) {
                throw new IOException(location + ": AWS profile '" + name + "' has "
                        + (id == null
                                ? "aws_secret_access_key without aws_access_key_id"
                                : "aws_access_key_id without aws_secret_access_key")
                        + " (" + profile.files() + ")");
            }
            return new S3Credentials.Keys(
                    id, secret, profile.get("aws_session_token"), "profile '" + name + "' in " + profile.files());
        }
        for (String k : new String[] {
            "credential_process", "role_arn", "sso_session", "sso_start_url", "web_identity_token_file"
        }) {
            if (profile.get(k) != null) {
                return new S3Credentials.SdkProfile(name, profiles.configFile(), profiles.credentialsFile());
            }
        }
        throw new IOException(location + ": AWS profile '" + name + "' in " + profile.files()
                + " has no credentials (aws_access_key_id/aws_secret_access_key); for unsigned requests to a"
                + " public bucket use aws.profile=none");
    }

    private static String nonEmpty(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    /** The client these settings need (shared by every location with the same spec). */
    public S3ClientSpec clientSpec() {
        return new S3ClientSpec(
                location.endpoint(),
                region,
                location.pathStyle(),
                credentials,
                tuning.maxConnections(),
                tuning.attemptTimeoutMillis(),
                tuning.requestTimeoutMillis());
    }

    /** For messages: profile, region and its source, how requests are signed. Never a secret. */
    public String describe() {
        return "profile '" + profile + "', region " + region + " (" + regionSource + "), " + credentials.describe();
    }

    @Override
    public String toString() {
        return "S3Settings[" + location + ", " + describe() + "]";
    }
}
