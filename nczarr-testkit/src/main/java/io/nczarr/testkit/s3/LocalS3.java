package io.nczarr.testkit.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * One loopback S3 server for the whole test JVM (S3Proxy, in memory), with counting relays in
 * front of its signed and anonymous endpoints, and a temporary AWS config/credentials pair
 * passed the way AWS_CONFIG_FILE / AWS_SHARED_CREDENTIALS_FILE would be (as the system
 * properties {@code nczarr.aws.configFile} / {@code nczarr.aws.credentialsFile}).
 *
 * <p>Profiles: {@value #PROFILE} (the server's key), {@value #WRONG_PROFILE} (a wrong secret),
 * {@value #REGION_ONLY_PROFILE} (no keys).
 */
public final class LocalS3 {

    public static final String PROFILE = "nczarr-test";
    public static final String WRONG_PROFILE = "nczarr-wrong";
    public static final String REGION_ONLY_PROFILE = "nczarr-nokeys";
    private static final String KEY_ID = "AKIALOCALTEST";
    private static final String SECRET = "local-test-secret-9a8b7c6d5e4f";

    /** nczarr-core's {@code AwsEnvironment} properties (the testkit depends on no project module). */
    private static final String CONFIG_FILE_PROPERTY = "nczarr.aws.configFile";

    private static final String CREDENTIALS_FILE_PROPERTY = "nczarr.aws.credentialsFile";

    private static LocalS3 instance;

    public final LocalS3Server server;
    /** In front of the signed endpoint. */
    public final CountingProxy signed;
    /** In front of the unauthenticated endpoint (a public-read bucket). */
    public final CountingProxy anonymous;

    private final Set<String> uploaded = new HashSet<>();

    private LocalS3(LocalS3Server server, CountingProxy signed, CountingProxy anonymous) {
        this.server = server;
        this.signed = signed;
        this.anonymous = anonymous;
    }

    public static synchronized LocalS3 get() {
        if (instance == null) {
            try {
                Path dir = Files.createTempDirectory("nczarr-aws");
                dir.toFile().deleteOnExit();
                Path config = dir.resolve("config");
                Path credentials = dir.resolve("credentials");
                Files.writeString(
                        config,
                        "[profile " + PROFILE + "]\nregion = us-east-1\n" + "[profile " + REGION_ONLY_PROFILE
                                + "]\nregion = us-east-1\n");
                Files.writeString(
                        credentials,
                        "[" + PROFILE + "]\naws_access_key_id = " + KEY_ID
                                + "\naws_secret_access_key = " + SECRET + "\n"
                                + "[" + WRONG_PROFILE + "]\naws_access_key_id = " + KEY_ID
                                + "\naws_secret_access_key = not-the-secret\n");
                config.toFile().deleteOnExit();
                credentials.toFile().deleteOnExit();
                System.setProperty(CONFIG_FILE_PROPERTY, config.toString());
                System.setProperty(CREDENTIALS_FILE_PROPERTY, credentials.toString());
                LocalS3Server server = LocalS3Server.start(KEY_ID, SECRET);
                LocalS3 s3 = new LocalS3(
                        server,
                        CountingProxy.start(server.endpoint()),
                        CountingProxy.start(server.anonymousEndpoint()));
                Runtime.getRuntime().addShutdownHook(new Thread(s3::close));
                instance = s3;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return instance;
    }

    /** Uploads a dataset folder once as {@code bucket/key}. */
    public synchronized void upload(Path dir, String bucket, String key) {
        if (uploaded.add(bucket + "/" + key)) {
            try {
                server.upload(dir, bucket, key);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** {@code http://127.0.0.1:PORT/bucket/key#mode=<modes>&aws.profile=nczarr-test}, via the signed relay. */
    public String signedUrl(String bucket, String key, String modes) {
        return signed.endpoint() + "/" + bucket + "/" + key + "#mode=" + modes + "&aws.profile=" + PROFILE;
    }

    /** The same object through the unauthenticated endpoint, with {@code aws.profile=none}. */
    public String anonymousUrl(String bucket, String key, String modes) {
        return anonymous.endpoint() + "/" + bucket + "/" + key + "#mode=" + modes + "&aws.profile=none";
    }

    /** The S3 modes for a corpus fragment: {@code #mode=nczarr,file} becomes {@code nczarr,s3}. */
    public static String s3Modes(String fragment) {
        String m = fragment.replaceFirst("^#?mode=", "");
        StringBuilder out = new StringBuilder();
        for (String f : m.split(",")) {
            if (f.equals("file") || f.equals("zip") || f.isBlank()) {
                continue;
            }
            out.append(out.length() == 0 ? "" : ",").append(f);
        }
        return out.append(out.length() == 0 ? "s3" : ",s3").toString();
    }

    private void close() {
        signed.close();
        anonymous.close();
        server.close();
    }
}
