package io.nczarr.source;

import io.nczarr.error.StoreException;
import io.nczarr.error.TargetRefusedException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.http.HttpObjects;
import io.nczarr.http.HttpSettings;
import io.nczarr.http.auth.RequestAuth;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.s3.S3Bucket;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.s3.S3Location;
import io.nczarr.s3.S3Settings;
import io.nczarr.url.DatasetUrl;
import io.nczarr.url.DatasetUrl.StoreKind;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The one resolver of store URLs: a dataset URL (the user's, or one a document names: an aggregation fragment, a
 * reference file) → the backend its store reads keys from. Every decision a store used to make for itself is made
 * here, once: the trust rules for a document-named URL ({@link Trust#check} against its {@link Origin}), the
 * credentials an S3 bucket is opened with ({@link Trust#parametersFor}: a document never chooses a profile, and
 * gets the user's only on the endpoint and bucket they were given for), the HTTP credentials bound to the origin,
 * and the clients (leased from the shared pools the caller passes). Stores ({@code io.nczarr.store}) receive the
 * backend and know keys and bytes only. Opens nothing but an S3 client lease; sends nothing.
 */
public final class StoreSources {
    private final S3ClientPool s3;
    private final AwsEnvironment environment;
    private final Supplier<HttpClient> http;
    private final Function<Origin, RequestAuth> httpAuth;

    /**
     * @param httpAuth the user's HTTP credentials as the trust rules bind them to what an origin names
     */
    public StoreSources(
            S3ClientPool s3,
            AwsEnvironment environment,
            Supplier<HttpClient> http,
            Function<Origin, RequestAuth> httpAuth) {
        this.s3 = Objects.requireNonNull(s3, "s3");
        this.environment = Objects.requireNonNull(environment, "environment");
        this.http = Objects.requireNonNull(http, "http");
        this.httpAuth = Objects.requireNonNull(httpAuth, "httpAuth");
    }

    /** What a store reads: one of a local folder, a local zip file, an S3 prefix or a plain HTTP folder. */
    public sealed interface Backend permits Folder, Zip, S3Prefix, HttpFolder {}

    /** A local folder (the dataset's root, its links not yet judged: the directory store confines keys). */
    public record Folder(Path root) implements Backend {}

    /** A local regular file, to be read as a zip archive ({@link LocalFiles#openZip}). */
    public record Zip(Path file) implements Backend {}

    /** A prefix of an S3 bucket: {@code bucket} is a lease the store gives back, {@code location} its URL. */
    public record S3Prefix(S3Bucket bucket, S3Location root, String location) implements Backend {}

    /** A folder of a plain HTTP server (no credentials in {@code root}), read with {@code objects}. */
    public record HttpFolder(URI root, HttpObjects objects) implements Backend {}

    /**
     * The kind of store {@code url} names (no I/O for a remote URL, a look at a local path): its storage flag
     * ({@code mode=...,file|zip|s3|bytes|kerchunk}, the S3 API detected from the URL's mode, keys and host by
     * {@link DatasetUrl#declaredStoreKind()}), else what the local path holds: a zip file (named {@code *.zip} or
     * starting with the zip signature) or else a directory. A remote URL without a kind must be sniffed first
     * ({@code Stores.resolve}).
     */
    public static StoreKind kindOf(DatasetUrl url) {
        if (url.declaredStoreKind().isEmpty() && !"file".equals(url.scheme())) {
            throw new IllegalArgumentException("undecided remote URL " + url + ": Stores.resolve it first");
        }
        return url.declaredStoreKind()
                .orElseGet(() -> LocalFiles.looksLikeZip(url.localPath()) ? StoreKind.ZIP : StoreKind.DIRECTORY);
    }

    /**
     * The backend of a store of {@code kind} ({@link StoreKind#DIRECTORY}, {@link StoreKind#ZIP}, {@link
     * StoreKind#S3} or {@link StoreKind#HTTP}) at {@code url}, after the trust rules when {@code origin} is a
     * document's.
     *
     * @throws TargetRefusedException when the document may not name this store
     * @throws StoreException when the URL does not fit its kind or names nothing
     */
    public Backend open(DatasetUrl url, StoreKind kind, Origin origin) throws IOException {
        check(url, origin);
        switch (kind) {
            case DIRECTORY:
                return new Folder(folder(url));
            case ZIP:
                return zip(url);
            case S3: {
                S3Location loc = s3Location(url);
                return new S3Prefix(bucket(url, loc, origin), loc, loc.url());
            }
            case HTTP:
                return httpFolder(url, origin);
            default:
                throw new IllegalArgumentException("no store backend of kind " + kind + " for " + url);
        }
    }

    /**
     * The whole object a document URL names (a kerchunk reference file: local, S3 or HTTP by {@link
     * DatasetUrl#referenceLocationKind()}), read through the backend the resolver picks with the trust rules and
     * credentials of {@code origin}; empty when there is no such object.
     *
     * @param location what to call it in messages (no credentials)
     * @throws ObjectSource.TooLarge when it is larger than {@code maxBytes}, before its body is read
     */
    public Optional<byte[]> readDocument(DatasetUrl url, Origin origin, String location, long maxBytes)
            throws IOException {
        check(url, origin);
        StoreKind where = url.referenceLocationKind();
        switch (where) {
            case DIRECTORY: {
                Path p = url.localPath();
                if (p == null || !Files.isRegularFile(p)) {
                    return Optional.empty();
                }
                long size = Files.size(p);
                if (size > maxBytes) {
                    throw new ObjectSource.TooLarge(location, size, maxBytes);
                }
                try (InputStream in = Files.newInputStream(p)) {
                    return Optional.of(in.readNBytes((int) size));
                }
            }
            case S3: {
                S3Location loc = s3Location(url);
                try (S3Bucket bucket = bucket(url, loc, origin)) {
                    return bucket.get(loc.key(), maxBytes);
                } catch (S3Bucket.ObjectTooLarge e) {
                    throw new ObjectSource.TooLarge(location, e.size(), maxBytes);
                }
            }
            case HTTP:
                try {
                    return httpObjects(httpSettings(url, origin, location), origin)
                            .get(url.uri(), maxBytes);
                } catch (HttpObjects.TooLarge e) {
                    throw new ObjectSource.TooLarge(location, e.size(), maxBytes);
                }
            default:
                throw new UnsupportedFeatureException(
                        location,
                        null,
                        null,
                        "reference files in a " + where + " store",
                        "reference files are read from a local file, S3 or HTTP(S)",
                        null);
        }
    }

    /**
     * Checks a store or document URL named inside {@code origin}'s document (nothing for the user's own):
     * a local one must be a file or folder the document may reach, a remote one a host it may reach.
     */
    public void check(DatasetUrl url, Origin origin) throws TargetRefusedException {
        if (origin.isUserGiven()) {
            return;
        }
        URI target = url.localPath() != null
                ? url.localPath().toAbsolutePath().normalize().toUri()
                : url.uri();
        if (target != null) {
            Trust.check(origin, target, null, LocalTargets.Kind.FILE_OR_DIRECTORY);
        }
    }

    /** The fragment keys {@code url} is read with: as given by the user, filtered for a document-named one. */
    public static Map<String, String> parameters(DatasetUrl url, Origin origin, boolean s3) {
        return url.uri() == null ? url.parameters() : Trust.parametersFor(origin, url.uri(), url.parameters(), s3);
    }

    /**
     * The S3 bucket holding the object or prefix {@code url} names, leased from the pool (the caller closes it),
     * with the credentials the trust rules give a request from {@code origin}.
     */
    public S3Bucket bucket(DatasetUrl url, Origin origin) throws IOException {
        check(url, origin);
        return bucket(url, s3Location(url), origin);
    }

    private S3Bucket bucket(DatasetUrl url, S3Location loc, Origin origin) throws IOException {
        return openBucket(url.toString(), loc, parameters(url, origin, true), environment, s3);
    }

    /** A bucket of {@code loc} with {@code parameters} (already filtered by the trust rules), leased from {@code pool}. */
    static S3Bucket openBucket(
            String location,
            S3Location loc,
            Map<String, String> parameters,
            AwsEnvironment environment,
            S3ClientPool pool)
            throws IOException {
        S3Settings settings;
        try {
            settings = S3Settings.resolve(loc, parameters, environment);
        } catch (IllegalArgumentException e) {
            throw new StoreException(location, null, e.getMessage(), false, e);
        }
        return S3Bucket.open(settings, pool);
    }

    /** Where {@code url} is in S3 terms. */
    public static S3Location s3Location(DatasetUrl url) throws StoreException {
        if (url.uri() == null) {
            throw new StoreException(
                    url.toString(), null, "mode=s3 needs an s3://, https:// or http:// URL", false, null);
        }
        try {
            return S3Location.parse(url.uri());
        } catch (IllegalArgumentException e) {
            throw new StoreException(url.toString(), null, e.getMessage(), false, e);
        }
    }

    /** The HTTP settings of {@code url}'s fragment keys and the environment; a bad one names {@code location}. */
    public HttpSettings httpSettings(DatasetUrl url, Origin origin, String location) throws StoreException {
        try {
            return HttpSettings.resolve(parameters(url, origin, false), environment::property);
        } catch (IllegalArgumentException e) {
            throw new StoreException(location, null, e.getMessage(), false, e);
        }
    }

    /**
     * Plain GETs of the objects {@code origin} names (the user's URL, or those of a document), with the user's
     * HTTP credentials where the trust rules bind them and the shared client.
     */
    public HttpObjects httpObjects(HttpSettings settings, Origin origin) {
        return new HttpObjects(http.get(), settings, httpAuth.apply(origin));
    }

    private HttpFolder httpFolder(DatasetUrl url, Origin origin) throws IOException {
        URI u = url.uri();
        if (u == null || u.getHost() == null) {
            throw new StoreException(
                    url.toString(), null, "an HTTP store needs an http:// or https:// URL", false, null);
        }
        if (u.getRawUserInfo() != null && !origin.isUserGiven()) {
            throw new StoreException(
                    url.toString(), null, "a document may not put credentials in a URL it names", false, null);
        }
        HttpSettings settings = httpSettings(url, origin, url.toString());
        try {
            // user:password@ of the user's URL goes to its own scheme, host and port only (HttpLogins)
            String authority = u.getRawAuthority();
            int at = authority.lastIndexOf('@');
            u = new URI(u.getScheme(), authority.substring(at + 1), u.getPath(), u.getQuery(), null);
        } catch (URISyntaxException e) {
            throw new StoreException(url.toString(), null, e.getReason(), false, null);
        }
        return new HttpFolder(u, httpObjects(settings, origin));
    }

    /** The folder of a local store: a path to its root {@code .zgroup}/{@code zarr.json} means the folder. */
    private static Path folder(DatasetUrl url) throws StoreException {
        Path p = url.localPath();
        if (p == null) {
            throw refused(url, "a directory store needs a local path or file: URL");
        }
        Path name = p.getFileName();
        Path parent = p.getParent();
        if (name != null && parent != null && LocalFiles.isRootMarker(name.toString()) && Files.isRegularFile(p)) {
            p = parent;
        }
        if (!Files.exists(p)) {
            throw refused(url, "no such dataset" + where(url, p));
        }
        if (!Files.isDirectory(p)) {
            throw refused(url, p + " is not a directory (for a zip file use mode=...,zip)");
        }
        return p;
    }

    private static Zip zip(DatasetUrl url) throws IOException {
        Path p = url.localPath();
        if (p == null) {
            throw new UnsupportedFeatureException(
                    url.toString(), null, null, "remote zip stores", "zip stores must be local files", null);
        }
        if (!Files.isRegularFile(p)) {
            throw refused(url, "no such zip file" + where(url, p));
        }
        return new Zip(p);
    }

    /** Not there, or not what the URL says: trying again will not change that. */
    private static StoreException refused(DatasetUrl url, String detail) {
        return new StoreException(url.toString(), null, detail, false, null);
    }

    /** " (/abs/path)" when the URL does not already say the path. */
    private static String where(DatasetUrl url, Path p) {
        return url.original().contains(p.toString()) ? "" : " (" + p + ")";
    }
}
