package io.nczarr.store;

import io.nczarr.error.StoreException;
import io.nczarr.http.HttpSettings;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.url.DatasetUrl;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What opening a store needs from outside: the pool S3 stores lease their client from, the environment
 * (system properties, environment variables) AWS settings are read from, the memory limits (a store
 * bounds every whole-object read by {@link MemoryLimits#object()}), and whether directory stores may
 * follow symbolic links out of the dataset (off unless the host says so: {@code
 * nczarr.store.allowSymlinksOut}), and the HTTP client plain-HTTP stores send with. The caller owns them; a
 * store only leases.
 */
public record StoreResources(
        S3ClientPool s3Clients,
        AwsEnvironment environment,
        MemoryLimits limits,
        boolean allowSymlinksOut,
        Supplier<HttpClient> httpClients) {
    public StoreResources {
        Objects.requireNonNull(s3Clients, "s3Clients");
        Objects.requireNonNull(environment, "environment");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(httpClients, "httpClients");
    }

    /** Resources whose HTTP stores each make a client of their own (hosts pass the options' shared one). */
    public StoreResources(
            S3ClientPool s3Clients, AwsEnvironment environment, MemoryLimits limits, boolean allowSymlinksOut) {
        this(s3Clients, environment, limits, allowSymlinksOut, StoreResources::newHttpClient);
    }

    /** Resources whose directory stores stay inside their root (links out refused). */
    public StoreResources(S3ClientPool s3Clients, AwsEnvironment environment, MemoryLimits limits) {
        this(s3Clients, environment, limits, false);
    }

    /** An HTTP/1.1 client following redirects, as HTTP stores want one. */
    public static HttpClient newHttpClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    /** The client HTTP stores send with. */
    public HttpClient httpClient() {
        return httpClients.get();
    }

    /**
     * The HTTP settings of {@code url}'s fragment and this environment; a bad setting is a {@link
     * StoreException} of {@code location}.
     */
    HttpSettings httpSettings(DatasetUrl url, String location) throws StoreException {
        try {
            return HttpSettings.resolve(url.parameters(), environment()::property);
        } catch (IllegalArgumentException e) {
            throw new StoreException(location, null, e.getMessage(), false, e);
        }
    }

    /** The largest object read whole. */
    public long maxObjectBytes() {
        return limits.maxObjectBytes();
    }
}
