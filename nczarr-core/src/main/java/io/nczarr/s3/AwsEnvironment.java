package io.nczarr.s3;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.function.Function;

/**
 * The process-wide AWS settings outside the URL: environment variables, each of which can be
 * overridden by a Java system property (environment variables cannot be set inside a running
 * JVM, so tests and embedding applications use the properties).
 *
 * <table>
 *   <caption>lookups, first hit wins</caption>
 *   <tr><th>setting</th><th>system property</th><th>environment</th><th>default</th></tr>
 *   <tr><td>config file</td><td>{@code nczarr.aws.configFile}</td><td>{@code AWS_CONFIG_FILE}</td><td>{@code ~/.aws/config}</td></tr>
 *   <tr><td>credentials file</td><td>{@code nczarr.aws.credentialsFile}</td><td>{@code AWS_SHARED_CREDENTIALS_FILE}</td><td>{@code ~/.aws/credentials}</td></tr>
 *   <tr><td>profile</td><td>{@code nczarr.aws.profile}</td><td>{@code AWS_PROFILE}</td><td>none (then {@code default})</td></tr>
 *   <tr><td>access key</td><td>{@code aws.accessKeyId}</td><td>{@code AWS_ACCESS_KEY_ID}</td><td></td></tr>
 *   <tr><td>secret key</td><td>{@code aws.secretAccessKey}</td><td>{@code AWS_SECRET_ACCESS_KEY}</td><td></td></tr>
 *   <tr><td>session token</td><td>{@code aws.sessionToken}</td><td>{@code AWS_SESSION_TOKEN}</td><td></td></tr>
 * </table>
 */
public final class AwsEnvironment {

    public static final String CONFIG_FILE_PROPERTY = "nczarr.aws.configFile";
    public static final String CREDENTIALS_FILE_PROPERTY = "nczarr.aws.credentialsFile";
    public static final String PROFILE_PROPERTY = "nczarr.aws.profile";

    private final Function<String, String> properties;
    private final Function<String, String> environment;

    /**
     * @param properties system-property lookup (returns {@code null} when unset)
     * @param environment environment-variable lookup (returns {@code null} when unset)
     */
    public AwsEnvironment(Function<String, String> properties, Function<String, String> environment) {
        this.properties = properties;
        this.environment = environment;
    }

    /** The real process environment and system properties, read at each lookup. */
    public static AwsEnvironment system() {
        return new AwsEnvironment(System::getProperty, System::getenv);
    }

    /** Fixed values (tests): keys are property or environment-variable names. */
    public static AwsEnvironment of(Map<String, String> properties, Map<String, String> environment) {
        return new AwsEnvironment(properties::get, environment::get);
    }

    private String lookup(String property, String variable) {
        String v = property == null ? null : properties.apply(property);
        if (v == null || v.isBlank()) {
            v = variable == null ? null : environment.apply(variable);
        }
        return v == null || v.isBlank() ? null : v.trim();
    }

    /** A system property, or {@code null}. */
    public String property(String name) {
        String v = properties.apply(name);
        return v == null || v.isBlank() ? null : v.trim();
    }

    /** An environment variable, or {@code null} (HTTP credentials read {@code NETRC} and tokens here). */
    public String variable(String name) {
        String v = environment.apply(name);
        return v == null || v.isBlank() ? null : v.trim();
    }

    public Path configFile() {
        String v = lookup(CONFIG_FILE_PROPERTY, "AWS_CONFIG_FILE");
        return v != null ? Paths.get(v) : home().resolve(".aws").resolve("config");
    }

    public Path credentialsFile() {
        String v = lookup(CREDENTIALS_FILE_PROPERTY, "AWS_SHARED_CREDENTIALS_FILE");
        return v != null ? Paths.get(v) : home().resolve(".aws").resolve("credentials");
    }

    /** The profile chosen outside the URL, or {@code null}. */
    public String profile() {
        return lookup(PROFILE_PROPERTY, "AWS_PROFILE");
    }

    public String accessKeyId() {
        return lookup("aws.accessKeyId", "AWS_ACCESS_KEY_ID");
    }

    public String secretAccessKey() {
        return lookup("aws.secretAccessKey", "AWS_SECRET_ACCESS_KEY");
    }

    public String sessionToken() {
        return lookup("aws.sessionToken", "AWS_SESSION_TOKEN");
    }

    private Path home() {
        String h = properties.apply("user.home");
        return Paths.get(h == null ? "." : h);
    }
}
