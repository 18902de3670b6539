package io.nczarr.s3;

import io.nczarr.error.Redaction;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where an S3 object or prefix is, from any of the URL forms netcdf-c accepts (its NCZarr docs,
 * appendix E), canonicalised to bucket + key:
 * <ul>
 *   <li>{@code s3://bucket/key} (AWS; an {@code s3://} host under {@code amazonaws.com} is read
 *       as one of the two forms below, as netcdf-c does; an {@code s3://} host with a port is an
 *       S3-compatible endpoint over https);</li>
 *   <li>path style {@code https://s3.<region>.amazonaws.com/bucket/key} (also {@code s3.amazonaws.com}
 *       and the legacy {@code s3-<region>.amazonaws.com});</li>
 *   <li>virtual host {@code https://bucket.s3.<region>.amazonaws.com/key};</li>
 *   <li>any other host: an S3-compatible endpoint (MinIO, Ceph, a loopback test server) with
 *       path-style addressing, {@code http} or {@code https}: {@code https://host:port/bucket/key}.</li>
 * </ul>
 * Parsing only: the region is not decided here (see {@link S3Settings}); only the region a
 * host name carries is recorded.
 *
 * @param bucket the bucket
 * @param key the key or key prefix inside the bucket, without leading or trailing {@code /}
 *     ({@code ""} = the bucket root)
 * @param endpoint the endpoint of an S3-compatible server ({@code scheme://host[:port]}), or
 *     {@code null} for AWS, whose endpoint follows from the region
 * @param pathStyle whether requests put the bucket in the path (always for other endpoints)
 * @param hostRegion the region named in an AWS host name, or {@code null}
 */
public record S3Location(String bucket, String key, URI endpoint, boolean pathStyle, String hostRegion) {

    private static final String AWS_DOMAIN = ".amazonaws.com";
    /** {@code s3.amazonaws.com}, {@code s3.<region>.amazonaws.com}, {@code s3-<region>.amazonaws.com}. */
    private static final Pattern AWS_PATH_HOST = Pattern.compile("s3(?:[.-]([a-z0-9-]+))?\\.amazonaws\\.com");
    /** {@code <bucket>.s3.amazonaws.com}, {@code <bucket>.s3.<region>.amazonaws.com}, {@code <bucket>.s3-<region>...}. */
    private static final Pattern AWS_VIRTUAL_HOST = Pattern.compile("(.+)\\.s3(?:[.-]([a-z0-9-]+))?\\.amazonaws\\.com");

    private static final Pattern BUCKET = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{2,254}");

    public S3Location {
        if (bucket == null || !BUCKET.matcher(bucket).matches()) {
            throw new IllegalArgumentException(
                    "invalid S3 bucket name '" + bucket + "' (3 to 255 letters, digits, '.', '-' or '_')");
        }
        key = trimSlashes(key == null ? "" : key);
    }

    /**
     * Parses an {@code s3}, {@code http} or {@code https} URI (without fragment).
     *
     * @throws IllegalArgumentException naming the URL when it is not an S3 location
     */
    public static S3Location parse(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("s3") && !scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException(
                    "not an S3 URL (scheme s3, http or https expected): " + Redaction.redact(uri));
        }
        String host = uri.getHost();
        if (host == null && scheme.equals("s3") && uri.getRawAuthority() != null && uri.getPort() < 0) {
            // java.net.URI has no host for names with '_' (legal in old bucket names)
            host = uri.getRawAuthority();
        }
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("S3 URL without a host (or bucket): " + Redaction.redact(uri));
        }
        String bucketHost = host;
        host = host.toLowerCase(Locale.ROOT);
        if (uri.getRawQuery() != null) {
            // the query may be a presigned URL's signature: named, not quoted
            throw new IllegalArgumentException("S3 URLs take no query string: " + Redaction.redact(uri));
        }
        if (uri.getUserInfo() != null) {
            throw new IllegalArgumentException("S3 URLs take no user name or password; use an AWS profile: "
                    + uri.getScheme() + "://" + host + "/...");
        }
        String path = uri.getPath() == null ? "" : trimSlashes(uri.getPath());

        if (host.endsWith(AWS_DOMAIN)) {
            return parseAwsHost(uri, host, path);
        }
        if (scheme.equals("s3") && uri.getPort() < 0) {
            // s3://bucket/key: the host is the bucket
            return new S3Location(bucketHost, path, null, false, null);
        }
        // any other host: an S3-compatible endpoint, path style, bucket = first path segment
        String endpointScheme = scheme.equals("s3") ? "https" : scheme;
        URI endpoint;
        try {
            endpoint = new URI(endpointScheme, null, uri.getHost(), uri.getPort(), null, null, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("bad S3 endpoint in " + Redaction.redact(uri) + ": " + e.getReason());
        }
        return pathStyle(uri, path, endpoint, null);
    }

    private static S3Location parseAwsHost(URI uri, String host, String path) {
        Matcher m = AWS_PATH_HOST.matcher(host);
        if (m.matches()) {
            return pathStyle(uri, path, null, m.group(1));
        }
        m = AWS_VIRTUAL_HOST.matcher(host);
        if (m.matches()) {
            return new S3Location(m.group(1), path, null, false, m.group(2));
        }
        throw new IllegalArgumentException("unrecognised AWS S3 host '" + host + "' in " + Redaction.redact(uri)
                + " (expected s3.<region>.amazonaws.com or <bucket>.s3.<region>.amazonaws.com)");
    }

    private static S3Location pathStyle(URI uri, String path, URI endpoint, String region) {
        if (path.isEmpty()) {
            throw new IllegalArgumentException(
                    "S3 URL without a bucket (path style: the first path segment): " + Redaction.redact(uri));
        }
        int slash = path.indexOf('/');
        String bucket = slash < 0 ? path : path.substring(0, slash);
        String key = slash < 0 ? "" : path.substring(slash + 1);
        return new S3Location(bucket, key, endpoint, true, region);
    }

    /** Whether this is AWS itself (the endpoint follows from the region) rather than another server. */
    public boolean isAws() {
        return endpoint == null;
    }

    /** The key of {@code name} below this location's key. */
    public String resolve(String name) {
        String n = trimSlashes(name);
        if (key.isEmpty()) {
            return n;
        }
        return n.isEmpty() ? key : key + "/" + n;
    }

    /** This location below {@code name} (e.g. a sub-folder of the dataset). */
    public S3Location child(String name) {
        return new S3Location(bucket, resolve(name), endpoint, pathStyle, hostRegion);
    }

    /**
     * The URL of an object in canonical path style, for messages: {@code s3://bucket/key} on AWS,
     * {@code http://host:port/bucket/key} elsewhere.
     */
    public String url(String objectKey) {
        String k = trimSlashes(objectKey);
        String base = endpoint == null ? "s3://" + bucket : endpoint + "/" + bucket;
        return k.isEmpty() ? base : base + "/" + k;
    }

    /** The canonical URL of this location. */
    public String url() {
        return url(key);
    }

    @Override
    public String toString() {
        return url();
    }

    static String trimSlashes(String s) {
        int b = 0;
        int e = s.length();
        while (b < e && s.charAt(b) == '/') {
            b++;
        }
        while (e > b && s.charAt(e - 1) == '/') {
            e--;
        }
        return s.substring(b, e);
    }
}
