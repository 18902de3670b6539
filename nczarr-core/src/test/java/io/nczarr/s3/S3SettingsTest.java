package io.nczarr.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** netcdf-c's profile, region and credential rules (appendix E), and no silent fallbacks. */
class S3SettingsTest {

    static final String SECRET_A = "secretAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    static final String SECRET_B = "secretBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";

    @TempDir
    Path tmp;

    Map<String, String> props;
    Map<String, String> env;

    @BeforeEach
    void files() throws IOException {
        Files.writeString(
                tmp.resolve("config"),
                String.join(
                        "\n",
                        "# a comment",
                        "[default]",
                        "region = eu-west-1",
                        "[profile unidata]",
                        "aws_region=us-west-2",
                        "s3 =",
                        "    max_concurrent_requests = 20",
                        "[profile regiononly]",
                        "region = ap-south-1",
                        "[profile tool]",
                        "credential_process = /bin/false",
                        ""));
        // netcdf-c's example indents the keys under the header
        Files.writeString(
                tmp.resolve("credentials"),
                String.join(
                        "\n",
                        "[default]",
                        "    aws_access_key_id=AKIADEFAULT",
                        "    aws_secret_access_key=" + SECRET_A,
                        "[unidata]",
                        "aws_access_key_id = AKIAUNIDATA",
                        "aws_secret_access_key = " + SECRET_B,
                        "aws_session_token = token123",
                        "[halfkey]",
                        "aws_access_key_id = AKIAHALF",
                        ""));
        props = new HashMap<>();
        props.put("user.home", tmp.resolve("nohome").toString());
        props.put(AwsEnvironment.CONFIG_FILE_PROPERTY, tmp.resolve("config").toString());
        env = new HashMap<>();
        env.put("AWS_SHARED_CREDENTIALS_FILE", tmp.resolve("credentials").toString());
    }

    S3Settings resolve(String url, Map<String, String> fragment) throws IOException {
        return S3Settings.resolve(S3Location.parse(URI.create(url)), fragment, AwsEnvironment.of(props, env));
    }

    @Test
    void defaultProfileAndItsRegion() throws IOException {
        S3Settings s = resolve("s3://bucket/k", Map.of());
        assertEquals("default", s.profile());
        assertEquals("eu-west-1", s.region());
        S3Credentials.Keys k = assertInstanceOf(S3Credentials.Keys.class, s.credentials());
        assertEquals("AKIADEFAULT", k.accessKeyId());
        assertEquals(SECRET_A, k.secretAccessKey());
        assertNull(k.sessionToken());
    }

    @Test
    void fragmentProfileWinsAndAwsprofileSpellingWorks() throws IOException {
        env.put("AWS_PROFILE", "default");
        for (String key : new String[] {"aws.profile", "awsprofile"}) {
            S3Settings s = resolve("s3://bucket/k", Map.of(key, "unidata"));
            assertEquals("unidata", s.profile());
            assertEquals("us-west-2", s.region(), "aws_region of the profile");
            S3Credentials.Keys k = assertInstanceOf(S3Credentials.Keys.class, s.credentials());
            assertEquals("AKIAUNIDATA", k.accessKeyId());
            assertEquals("token123", k.sessionToken());
        }
    }

    @Test
    void awsProfileEnvironmentAndProperty() throws IOException {
        env.put("AWS_PROFILE", "unidata");
        assertEquals("unidata", resolve("s3://bucket/k", Map.of()).profile());
        props.put(AwsEnvironment.PROFILE_PROPERTY, "default");
        assertEquals("default", resolve("s3://bucket/k", Map.of()).profile(), "the property overrides the variable");
    }

    @Test
    void regionOrder() throws IOException {
        // 1. fragment
        assertEquals(
                "sa-east-1",
                resolve("https://s3.us-west-2.amazonaws.com/b12/k", Map.of("aws.region", "sa-east-1"))
                        .region());
        // 2. profile (aws_region or region)
        assertEquals(
                "eu-west-1",
                resolve("https://s3.us-west-2.amazonaws.com/b12/k", Map.of()).region());
        // 3. host name, when the profile has none
        S3Settings s = resolve("https://b12.s3.us-west-2.amazonaws.com/k", Map.of("aws.profile", "none"));
        assertEquals("us-west-2", s.region());
        assertEquals("host name", s.regionSource());
        // 4. us-east-1
        assertEquals(
                "us-east-1",
                resolve("http://127.0.0.1:9000/bucket/k", Map.of("aws.profile", "none"))
                        .region());
    }

    @Test
    void profileNoneIsAnonymousAndNeedsNoFiles() throws IOException {
        props.put(AwsEnvironment.CONFIG_FILE_PROPERTY, tmp.resolve("missing").toString());
        env.put("AWS_SHARED_CREDENTIALS_FILE", tmp.resolve("missing2").toString());
        env.put("AWS_ACCESS_KEY_ID", "AKIAENV");
        env.put("AWS_SECRET_ACCESS_KEY", "x");
        S3Settings s = resolve("s3://bucket/k", Map.of("aws.profile", "none"));
        assertInstanceOf(S3Credentials.Anonymous.class, s.credentials());
        assertEquals("none", s.profile());
        env.put("AWS_PROFILE", "none");
        assertInstanceOf(
                S3Credentials.Anonymous.class,
                resolve("s3://bucket/k", Map.of()).credentials());
        Files.writeString(tmp.resolve("broken"), "not a profile file\n");
        props.put(AwsEnvironment.CONFIG_FILE_PROPERTY, tmp.resolve("broken").toString());
        assertInstanceOf(
                S3Credentials.Anonymous.class,
                resolve("s3://bucket/k", Map.of()).credentials());
    }

    @Test
    void environmentKeysWhenNoProfileIsNamed() throws IOException {
        env.put("AWS_ACCESS_KEY_ID", "AKIAENV");
        env.put("AWS_SECRET_ACCESS_KEY", SECRET_B);
        env.put("AWS_SESSION_TOKEN", "tok");
        S3Credentials.Keys k = assertInstanceOf(
                S3Credentials.Keys.class, resolve("s3://bucket/k", Map.of()).credentials());
        assertEquals("AKIAENV", k.accessKeyId());
        assertEquals("tok", k.sessionToken());
        // a named profile wins over the environment
        k = assertInstanceOf(
                S3Credentials.Keys.class,
                resolve("s3://bucket/k", Map.of("aws.profile", "unidata")).credentials());
        assertEquals("AKIAUNIDATA", k.accessKeyId());
        // system properties aws.accessKeyId/aws.secretAccessKey stand in for the variables
        env.clear();
        env.put("AWS_SHARED_CREDENTIALS_FILE", tmp.resolve("missing").toString());
        props.put("aws.accessKeyId", "AKIAPROP");
        props.put("aws.secretAccessKey", SECRET_A);
        k = assertInstanceOf(
                S3Credentials.Keys.class, resolve("s3://bucket/k", Map.of()).credentials());
        assertEquals("AKIAPROP", k.accessKeyId());
    }

    @Test
    void missingNamedProfileIsAnErrorNotAnonymous() {
        IOException e =
                assertThrows(IOException.class, () -> resolve("s3://bucket/k", Map.of("aws.profile", "nosuch")));
        assertTrue(e.getMessage().contains("'nosuch'"), e.getMessage());
        assertTrue(e.getMessage().contains("credentials"), e.getMessage());
        env.put("AWS_PROFILE", "nosuch2");
        e = assertThrows(IOException.class, () -> resolve("s3://bucket/k", Map.of()));
        assertTrue(e.getMessage().contains("'nosuch2'"), e.getMessage());
    }

    @Test
    void noCredentialsAtAllIsAnError() {
        props.put(AwsEnvironment.CONFIG_FILE_PROPERTY, tmp.resolve("missing").toString());
        env.put("AWS_SHARED_CREDENTIALS_FILE", tmp.resolve("missing2").toString());
        IOException e = assertThrows(IOException.class, () -> resolve("s3://bucket/k", Map.of()));
        assertTrue(e.getMessage().contains("aws.profile=none"), e.getMessage());
    }

    @Test
    void profileWithoutKeysIsAnError() {
        IOException e =
                assertThrows(IOException.class, () -> resolve("s3://bucket/k", Map.of("aws.profile", "regiononly")));
        assertTrue(e.getMessage().contains("no credentials"), e.getMessage());
        e = assertThrows(IOException.class, () -> resolve("s3://bucket/k", Map.of("aws.profile", "halfkey")));
        assertTrue(e.getMessage().contains("without aws_secret_access_key"), e.getMessage());
        env.put("AWS_ACCESS_KEY_ID", "AKIAENV");
        e = assertThrows(IOException.class, () -> resolve("s3://bucket/k", Map.of()));
        assertTrue(e.getMessage().contains("must be set together"), e.getMessage());
    }

    @Test
    void credentialProcessProfilesAreLeftToTheSdk() throws IOException {
        S3Credentials c =
                resolve("s3://bucket/k", Map.of("aws.profile", "tool")).credentials();
        assertInstanceOf(S3Credentials.SdkProfile.class, c);
    }

    @Test
    void defaultFilesAreUnderUserHome() throws IOException {
        props.remove(AwsEnvironment.CONFIG_FILE_PROPERTY);
        env.remove("AWS_SHARED_CREDENTIALS_FILE");
        Path aws = Files.createDirectories(tmp.resolve("nohome/.aws"));
        Files.copy(tmp.resolve("credentials"), aws.resolve("credentials"));
        Files.writeString(aws.resolve("config"), "[default]\naws_region = ca-central-1\n");
        S3Settings s = resolve("s3://bucket/k", Map.of());
        assertEquals("ca-central-1", s.region());
        assertInstanceOf(S3Credentials.Keys.class, s.credentials());
    }

    @Test
    void subKeysAreKept() throws IOException {
        AwsProfiles p = AwsProfiles.load(tmp.resolve("config"), tmp.resolve("credentials"));
        assertEquals("20", p.profile("unidata").get("s3.max_concurrent_requests"));
        assertEquals("AKIAUNIDATA", p.profile("unidata").get("aws_access_key_id"), "both files merged");
    }

    @Test
    void noSecretInAnyDescription() throws IOException {
        S3Settings s = resolve("s3://bucket/k", Map.of("aws.profile", "unidata"));
        for (String text : new String[] {
            s.toString(),
            s.describe(),
            s.credentials().toString(),
            s.clientSpec().toString(),
            s.credentials().describe()
        }) {
            assertFalse(text.contains(SECRET_B), text);
            assertFalse(text.contains("token123"), text);
        }
    }

    @Test
    void malformedFileNamesTheLineNotTheContent() throws IOException {
        Files.writeString(tmp.resolve("credentials"), "[default]\n" + SECRET_A + "\n");
        IOException e = assertThrows(IOException.class, () -> resolve("s3://bucket/k", Map.of()));
        assertTrue(e.getMessage().contains(":2:"), e.getMessage());
        assertFalse(e.getMessage().contains(SECRET_A), e.getMessage());
    }

    @Test
    void tuningFromFragmentAndProperties() throws IOException {
        assertEquals(
                S3Tuning.DEFAULT_CONCURRENCY,
                resolve("s3://bucket/k", Map.of()).tuning().concurrency());
        props.put(S3Tuning.CONCURRENCY, "4");
        assertEquals(4, resolve("s3://bucket/k", Map.of()).tuning().concurrency());
        assertEquals(
                1,
                resolve("s3://bucket/k", Map.of("nczarr.s3.concurrency", "1"))
                        .tuning()
                        .concurrency());
        assertThrows(
                IllegalArgumentException.class, () -> resolve("s3://bucket/k", Map.of("nczarr.s3.concurrency", "x")));
    }

    @Test
    void deadlinesFromFragmentAndProperties() throws IOException {
        S3Tuning dflt = resolve("s3://bucket/k", Map.of()).tuning();
        assertEquals(30_000, dflt.attemptTimeoutMillis());
        assertEquals(120_000, dflt.requestTimeoutMillis());
        props.put(S3Tuning.REQUEST_TIMEOUT_MS, "60000");
        S3Tuning t = resolve("s3://bucket/k", Map.of("nczarr.s3.attempttimeoutms", "500"))
                .tuning();
        assertEquals(500, t.attemptTimeoutMillis());
        assertEquals(60_000, t.requestTimeoutMillis());
        // an attempt never outlives its request
        S3Settings s = resolve("s3://bucket/k", Map.of("nczarr.s3.requesttimeoutms", "2000"));
        assertEquals(2000, s.tuning().attemptTimeoutMillis());
        assertEquals(2000, s.clientSpec().attemptTimeoutMillis(), "the socket and SDK time-outs follow");
        for (String bad : new String[] {"0", "-1", "x", "86400001"}) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> resolve("s3://bucket/k", Map.of("nczarr.s3.attempttimeoutms", bad)));
            assertTrue(e.getMessage().contains(S3Tuning.ATTEMPT_TIMEOUT_MS), e.getMessage());
        }
    }
}
