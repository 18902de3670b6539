package io.nczarr.source;

import io.nczarr.error.Redaction;
import io.nczarr.error.StoreException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.http.auth.RequestAuth;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.s3.S3Bucket;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.s3.S3Location;
import io.nczarr.url.DatasetUrl;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The one resolver: URL → {@link ObjectSource}. Every URL is judged here before a byte is asked for: one
 * the user gave is trusted; one a document named (a kerchunk target, a fragment, a CFA file) passes {@link
 * Trust#check} against the document's {@link Origin} first, and S3 requests to it carry the user's
 * credentials only where {@link Trust#parametersFor} binds them. {@code file:} URLs become {@link
 * LocalObjectSource}s (regular files only, through one bounded {@link OpenFiles} pool), {@code s3://} URLs
 * and the http(s) URLs {@code s3Api} selects {@link S3ObjectSource}s (one shared bucket per endpoint, bucket
 * and credentials), other http(s) URLs {@link HttpObjectSource}s. The sources it gives share its resources:
 * closing one is free, closing the resolver releases all. Thread-safe.
 */
public final class ObjectSources implements Closeable {
    private final Origin origin;
    private final Map<String, String> parameters;
    private final Predicate<URI> s3Api;
    private final Supplier<HttpClient> http;
    private final HttpSourceSettings httpSettings;
    private final RequestAuth httpAuth;
    private final S3ClientPool s3;
    private final AwsEnvironment environment;
    private final OpenFiles files = new OpenFiles(OpenFiles.DEFAULT_MAX);
    /** Guarded by itself. */
    private final Map<String, S3Bucket> buckets = new HashMap<>();

    private volatile boolean closed;

    /**
     * @param origin where the URLs come from: {@link Origin#isUserGiven()} for the user's own, else the chain
     *     of documents that named them
     * @param parameters the user's URL fragment keys (profile, region...): filtered per target by the trust
     *     rules
     * @param s3Api which http(s) URLs are read with the S3 API (signed) rather than plain GETs
     */
    public ObjectSources(
            Origin origin,
            Map<String, String> parameters,
            Predicate<URI> s3Api,
            Supplier<HttpClient> http,
            HttpSourceSettings httpSettings,
            S3ClientPool s3,
            AwsEnvironment environment) {
        this(origin, parameters, s3Api, http, httpSettings, RequestAuth.NONE, s3, environment);
    }

    /** As above, with the user's HTTP credentials where {@code httpAuth} binds them to a target. */
    public ObjectSources(
            Origin origin,
            Map<String, String> parameters,
            Predicate<URI> s3Api,
            Supplier<HttpClient> http,
            HttpSourceSettings httpSettings,
            RequestAuth httpAuth,
            S3ClientPool s3,
            AwsEnvironment environment) {
        this.httpAuth = Objects.requireNonNull(httpAuth, "httpAuth");
        this.origin = Objects.requireNonNull(origin, "origin");
        this.parameters = Map.copyOf(parameters);
        this.s3Api = Objects.requireNonNull(s3Api, "s3Api");
        this.http = Objects.requireNonNull(http, "http");
        this.httpSettings = Objects.requireNonNull(httpSettings, "httpSettings");
        this.s3 = Objects.requireNonNull(s3, "s3");
        this.environment = Objects.requireNonNull(environment, "environment");
    }

    /** The backends of this resolver. */
    public enum Kind {
        LOCAL,
        S3,
        HTTP,
        UNSUPPORTED
    }

    /** Which backend this resolver reads {@code target} with (no I/O, no trust check). */
    public Kind kind(URI target) {
        return kindOf(target, s3Api);
    }

    /**
     * The one URL → backend rule (no I/O, no trust check): {@code file:} local, {@code s3://} S3, http(s) S3
     * where {@code s3Api} says so, else plain HTTP; another scheme has no backend.
     */
    public static Kind kindOf(URI target, Predicate<URI> s3Api) {
        String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(Locale.ROOT);
        switch (scheme) {
            case "file":
                return Kind.LOCAL;
            case "s3":
                return Kind.S3;
            case "http":
            case "https":
                return s3Api.test(target) ? Kind.S3 : Kind.HTTP;
            default:
                return Kind.UNSUPPORTED;
        }
    }

    /** Whether reads of {@code target} are network requests (worth coalescing and running in parallel). */
    public static boolean isRemote(URI target) {
        return !"file".equalsIgnoreCase(target.getScheme());
    }

    /**
     * The source of {@code target}, after the trust rules ({@link Trust#check}, {@code key} naming what is read
     * for the message). Sends nothing; opens nothing but an S3 client lease.
     *
     * @throws io.nczarr.error.TargetRefusedException when the document may not name this target
     * @throws UnsupportedFeatureException for a scheme without a backend
     */
    public ObjectSource open(URI target, String key) throws IOException {
        ensureOpen();
        Trust.check(origin, target, key, LocalTargets.Kind.REGULAR_FILE);
        switch (kind(target)) {
            case LOCAL: {
                Path p = LocalTargets.pathOf(target);
                if (p == null) {
                    throw new StoreException(Redaction.redact(target), null, "not a local file URL", false, null);
                }
                return LocalObjectSource.open(p, files);
            }
            case S3: {
                S3Location loc = s3Location(target);
                if (loc.key().isEmpty()) {
                    throw new StoreException(loc.url(), null, S3ObjectSource.NO_KEY, false, null);
                }
                return new S3ObjectSource(bucket(target, loc), loc.key());
            }
            case HTTP:
                try {
                    return HttpObjectSource.open(target, httpSettings, http.get(), httpAuth);
                } catch (IllegalArgumentException e) {
                    throw SourceFailures.unusableUrl(target, e);
                }
            default:
                throw new UnsupportedFeatureException(
                        Redaction.redact(target),
                        null,
                        null,
                        "URL scheme " + target.getScheme(),
                        "no reader for the URL scheme '" + target.getScheme() + "' (file:, s3://, http://, https://)",
                        null);
        }
    }

    /** {@code {local files opened so far, open now}} (tests). */
    public long[] fileCounts() {
        return files.counts();
    }

    private static S3Location s3Location(URI target) throws StoreException {
        try {
            return S3Location.parse(target);
        } catch (IllegalArgumentException e) {
            throw new StoreException(Redaction.redact(target), null, e.getMessage(), false, e);
        }
    }

    private S3Bucket bucket(URI target, S3Location loc) throws IOException {
        String id = loc.endpoint() + "|" + loc.bucket() + "|" + loc.pathStyle() + "|" + loc.hostRegion() + "|"
                + Trust.credentialsBound(origin, target);
        synchronized (buckets) {
            S3Bucket b = buckets.get(id);
            if (b == null) {
                ensureOpen();
                b = StoreSources.openBucket(
                        Redaction.redact(target),
                        loc,
                        Trust.parametersFor(origin, target, parameters, true),
                        environment,
                        s3);
                buckets.put(id, b);
            }
            return b;
        }
    }

    /** The http(s) URLs of AWS S3 hosts and of {@code authority} ({@code scheme://host:port}; may be null). */
    public static Predicate<URI> s3ApiOn(String authority) {
        return t -> {
            String a = t.getScheme() + "://" + t.getRawAuthority();
            return a.equalsIgnoreCase(authority) || DatasetUrl.isAwsS3ApiHost(t.getHost());
        };
    }

    private void ensureOpen() throws StoreException {
        if (closed) {
            throw new StoreException("object sources closed", false);
        }
    }

    @Override
    public void close() {
        closed = true;
        files.close();
        synchronized (buckets) {
            buckets.values().forEach(S3Bucket::close);
            buckets.clear();
        }
    }
}
