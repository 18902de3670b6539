package io.nczarr.store;

import io.nczarr.error.StoreException;
import io.nczarr.http.HttpObjects;
import io.nczarr.http.HttpSettings;
import io.nczarr.http.auth.RequestAuth;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.source.Origin;
import io.nczarr.source.StoreSources;
import io.nczarr.source.TrustSettings;
import io.nczarr.url.DatasetUrl;
import java.net.URI;
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
 * store only leases. {@code trust} is what documents (reference files) may reach ({@link
 * io.nczarr.source.Trust}); {@code origin} is null for a URL the user gives, else the document chain that
 * named the URL being opened (an aggregation's fragment).
 */
public record StoreResources(
        S3ClientPool s3Clients,
        AwsEnvironment environment,
        MemoryLimits limits,
        boolean allowSymlinksOut,
        Supplier<HttpClient> httpClients,
        TrustSettings trust,
        Origin origin,
        HttpLogins httpLogins) {
    public StoreResources {
        Objects.requireNonNull(s3Clients, "s3Clients");
        Objects.requireNonNull(environment, "environment");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(httpClients, "httpClients");
        Objects.requireNonNull(trust, "trust");
        Objects.requireNonNull(httpLogins, "httpLogins");
    }

    /** Resources without HTTP credentials. */
    public StoreResources(
            S3ClientPool s3Clients,
            AwsEnvironment environment,
            MemoryLimits limits,
            boolean allowSymlinksOut,
            Supplier<HttpClient> httpClients,
            TrustSettings trust,
            Origin origin) {
        this(s3Clients, environment, limits, allowSymlinksOut, httpClients, trust, origin, HttpLogins.none());
    }

    /** Resources with the default trust settings, for a URL the user gives. */
    public StoreResources(
            S3ClientPool s3Clients,
            AwsEnvironment environment,
            MemoryLimits limits,
            boolean allowSymlinksOut,
            Supplier<HttpClient> httpClients) {
        this(s3Clients, environment, limits, allowSymlinksOut, httpClients, TrustSettings.defaults(), null);
    }

    /** These resources for a URL named by a document: {@code origin} is the chain that named it. */
    public StoreResources withOrigin(Origin origin) {
        return new StoreResources(
                s3Clients, environment, limits, allowSymlinksOut, httpClients, trust, origin, httpLogins);
    }

    /** The origin of {@code url} opened with these resources: {@link #origin()}, or the user's own. */
    public Origin originOf(DatasetUrl url) {
        return origin != null ? origin : Origin.user(url, trust);
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

    /**
     * Objects read over HTTP with {@code settings}, carrying the user's HTTP credentials where the trust rules
     * bind them to the URLs read ({@code origin}: the document chain that names them, or null for the user's
     * own URL).
     */
    public HttpObjects httpObjects(HttpSettings settings, Origin origin) {
        return sources().httpObjects(settings, origin);
    }

    /** The resolver of store URLs ({@link StoreSources}) with these resources' pools, clients and HTTP logins. */
    public StoreSources sources() {
        return new StoreSources(s3Clients, environment, httpClients, httpLogins::forOrigin);
    }

    /** The user's HTTP credentials for the URL the user gave ({@code #mode=bytes}: one object, no documents). */
    public RequestAuth userHttpAuth(URI userUrl) {
        return httpAuth(Origin.user(DatasetUrl.parse(userUrl.toString()), trust()));
    }

    /** The user's HTTP credentials as the trust rules bind them to the URLs {@code origin} names. */
    public RequestAuth httpAuth(Origin origin) {
        return httpLogins.forOrigin(origin);
    }

    /** The client HTTP stores send with. */
    public HttpClient httpClient() {
        return httpClients.get();
    }

    /**
     * The HTTP settings of {@code url}'s fragment (as the trust rules filter a document-named one) and this
     * environment; a bad setting is a {@link StoreException} of {@code location}.
     */
    public HttpSettings httpSettings(DatasetUrl url, String location) throws StoreException {
        return sources().httpSettings(url, originOf(url), location);
    }

    /** The largest object read whole. */
    public long maxObjectBytes() {
        return limits.maxObjectBytes();
    }
}
